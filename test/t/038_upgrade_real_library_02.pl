# Upgrades from the 0.2 release with its real library: the shared body in
# test/perl/upgrade_real_library.pl, run for 0.2 (the tree of commit
# 6c623dc: 0.2's install script built from src/sql, the upgrade from 0.1,
# and no upgrade script beyond 0.2).
use strict;
use warnings;
use FindBin;
# the test framework is loaded at compile time (its INIT blocks), before the body
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

our $release = '6c623dc';
our $old_version = '0.2';
our $is_release = sub {
	-f "$_[0]/pgbenchx--0.1--0.2.sql" && -d "$_[0]/src/sql" && !-e "$_[0]/src/upgrade"
	  && (slurp($_[0] . '/pgbenchx.control') =~ /^default_version = '0\.2'/m)
};
sub slurp { open my $fh, '<', $_[0] or return ''; local $/; return <$fh>; }
do "$FindBin::RealBin/../perl/upgrade_real_library.pl" or die($@ || "upgrade_real_library.pl: $!");
