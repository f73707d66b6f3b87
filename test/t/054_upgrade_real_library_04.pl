# Upgrades from the 0.4 release with its real library: the shared body in
# test/perl/upgrade_real_library.pl, run for 0.4 (the tree of commit
# 81584be: 0.4's install script built from src/sql, the upgrade scripts from
# 0.1, 0.2 and 0.3, and no upgrade script beyond 0.4).
use strict;
use warnings;
use FindBin;
# the test framework is loaded at compile time (its INIT blocks), before the body
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

our $release = '81584be';
our $old_version = '0.4';
our $is_release = sub {
	-d "$_[0]/src/upgrade/0.3--0.4" && !-e "$_[0]/src/upgrade/0.4--0.5"
	  && (slurp($_[0] . '/pgbenchx.control') =~ /^default_version = '0\.4'/m)
};
sub slurp { open my $fh, '<', $_[0] or return ''; local $/; return <$fh>; }
do "$FindBin::RealBin/../perl/upgrade_real_library.pl" or die($@ || "upgrade_real_library.pl: $!");
