#!/usr/bin/perl
# Tunneler: a Perl bot, started afresh every turn (the seed's way), with core modules.
# It heads for the gold it sees, else keeps the heading it left in its scratch file.
use strict;
use warnings;
use List::Util qw(first max);

my %steps = (NN => [-1, 0], NE => [-1, 1], EE => [0, 1], SE => [1, 1],
             SS => [1, 0], SW => [1, -1], WW => [0, -1], NW => [-1, -1]);
my @lines = grep { length } map { s/\s+$//r } <STDIN>;
shift @lines;                                   # the status line
my ($mr, $mc) = (0, 0);
for my $r (0 .. $#lines) {
    my $c = index($lines[$r], 'Y');
    ($mr, $mc) = ($r, $c) if $c >= 0;
}
sub at {
    my ($r, $c) = @_;
    return '}' if $r < 0 || $r > $#lines || $c < 0 || $c >= length $lines[$r];
    return substr($lines[$r], $c, 1);
}
my $heading = 'SE';
if (open my $in, '<', 'heading') { chomp($heading = <$in> // 'SE'); close $in; }
$heading = 'SE' unless exists $steps{$heading};
my $gold = first { at($mr + $steps{$_}[0], $mc + $steps{$_}[1]) eq 'G' } sort keys %steps;
$heading = $gold if defined $gold;
my @order = sort keys %steps;
my $tries = 0;
while (index('}P@LCB', at($mr + $steps{$heading}[0], $mc + $steps{$heading}[1])) >= 0
       && $tries++ < max(1, scalar @order)) {
    $heading = $order[(1 + (first { $order[$_] eq $heading } 0 .. $#order)) % @order];
}
if (open my $out, '>', 'heading') { print $out "$heading\n"; close $out; }
print "M${heading}H${heading}\n";
