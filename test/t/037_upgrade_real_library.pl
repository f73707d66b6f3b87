# Upgrades from the 0.1 release with its real library: the shared body in
# test/perl/upgrade_real_library.pl, run for 0.1 (the tree of commit
# a6d06c5: its install script and no upgrade script).
use strict;
use warnings;
use FindBin;
# the test framework is loaded at compile time (its INIT blocks), before the body
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

our $release = 'a6d06c5';
our $old_version = '0.1';
our $is_release = sub { -f "$_[0]/pgbenchx--0.1.sql" && !-e "$_[0]/pgbenchx--0.1--0.2.sql" };
do "$FindBin::RealBin/../perl/upgrade_real_library.pl" or die($@ || "upgrade_real_library.pl: $!");
