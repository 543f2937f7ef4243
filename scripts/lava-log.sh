#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# lava-log LOG OUTDIR: the console of a LAVA job's log, for rcuvet's
# verdict.  LOG is the job's log as LAVA keeps it (log.yaml, output.yaml,
# `lavacli jobs logs --raw`): one record a line, {dt, lvl, msg}, each string
# double-quoted; the guest's console is the records of level "target", and
# the job's end a "results" record of definition lava, case job.  Writes
#   OUTDIR/console.log  the console as a local boot writes it (LAVA's
#                       quoting undone), when rcuvet is to judge it;
#   OUTDIR/lava.txt     how LAVA ended the job.
# Exits 0 when the console is the verdict's to judge: the job was Complete
# (a hung guest too: the jobs' monitors skip their timeouts), or it ended
# Incomplete after the kernel had started (a guest that panics ends QEMU,
# and LAVA calls the closed console an infrastructure error; a local boot
# ends the same way and its verdict fails).  Exits 3, an infrastructure
# error, with no console.log, when LAVA ended the job before the kernel
# started (an artifact it could not fetch, QEMU that did not start, a
# worker lost), canceled it, failed itself (Bug, Configuration), or the
# log has no end: never a pass nor a test failure.  Exits 2 if LOG is not
# such a log.
. "$(dirname "$0")/lib.sh"

log=${1:?usage: lava-log.sh LOG OUTDIR}
out=${2:?usage: lava-log.sh LOG OUTDIR}
[ -f "$log" ] || die "no LAVA job log $log"
mkdir -p "$out"
rm -f "$out/console.log" "$out/lava.txt"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The records: the console lines to $2, the job's end to $3 as
# RESULT<TAB>ERROR_TYPE<TAB>ERROR_MSG.  A record is a YAML flow mapping on
# one line (lava_common/log.py: default_style='"', no line folding).
perl -e '
use strict;
use warnings;
my ($log, $console, $job) = @ARGV;
my %esc = ("0" => "\0", "a" => "\a", "b" => "\b", "t" => "\t", "\t" => "\t",
	"n" => "\n", "v" => "\x0b", "f" => "\f", "r" => "\r", "e" => "\e",
	" " => " ", "\"" => "\"", "/" => "/", "\\" => "\\", "N" => "\x{85}",
	"_" => "\x{a0}", "L" => "\x{2028}", "P" => "\x{2029}");
my ($s, $pos);
sub fail { die "line $.: $_[0]\n" }
sub ws { $s =~ /\G[ \t]*/gc }
sub value {
	ws();
	$s =~ /\G!!?[\w:.\/-]*[ \t]+/gc;	# a tag: !!int "3"
	if ($s =~ /\G"/gc) {
		my $v = "";
		while (1) {
			if ($s =~ /\G([^"\\]+)/gc) { $v .= $1; }
			elsif ($s =~ /\G\\x([0-9A-Fa-f]{2})/gc) { $v .= chr(hex $1); }
			elsif ($s =~ /\G\\u([0-9A-Fa-f]{4})/gc) { $v .= chr(hex $1); }
			elsif ($s =~ /\G\\U([0-9A-Fa-f]{8})/gc) { $v .= chr(hex $1); }
			elsif ($s =~ /\G\\(.)/gcs) {
				defined $esc{$1} or fail("unknown escape \\$1");
				$v .= $esc{$1};
			}
			elsif ($s =~ /\G"/gc) { return $v; }
			else { fail("unterminated string"); }
		}
	}
	if ($s =~ /\G\{/gc) {
		my %m;
		ws();
		return \%m if $s =~ /\G\}/gc;
		while (1) {
			my $k = value();
			ws();
			$s =~ /\G:/gc or fail("no : after a key");
			$m{$k} = value();
			ws();
			next if $s =~ /\G,/gc;
			return \%m if $s =~ /\G\}/gc;
			fail("no , or } in a mapping");
		}
	}
	if ($s =~ /\G\[/gc) {
		my @l;
		ws();
		return \@l if $s =~ /\G\]/gc;
		while (1) {
			push @l, value();
			ws();
			next if $s =~ /\G,/gc;
			return \@l if $s =~ /\G\]/gc;
			fail("no , or ] in a list");
		}
	}
	$s =~ /\G([^,:{}\[\]]*[^,:{}\[\] \t])/gc or fail("no value");
	return $1;
}
open(my $in, "<:encoding(UTF-8)", $log) or die "$log: $!\n";
open(my $con, ">:encoding(UTF-8)", $console) or die "$console: $!\n";
my @end;
my $records = 0;
while (<$in>) {
	s/\r?\n\z//;
	next if /^\s*(#.*)?$/;
	/^- / or fail("not a record (- {dt, lvl, msg})");
	$s = substr($_, 2);
	my $r = value();
	ws();
	pos($s) == length($s) or fail("text after the record");
	ref $r eq "HASH" && defined $r->{lvl} && exists $r->{msg} or fail("a record without lvl or msg");
	$records++;
	if ($r->{lvl} eq "target") {
		# lava_dispatcher/shell.py (ShellLogger) escapes each " of the
		# console as \" before the record is dumped: undone.
		(my $line = ref $r->{msg} ? "" : $r->{msg}) =~ s/\\"/"/g;
		print $con "$line\n";
	} elsif ($r->{lvl} eq "results" && ref $r->{msg} eq "HASH" &&
		 ($r->{msg}{definition} // "") eq "lava" && ($r->{msg}{case} // "") eq "job") {
		@end = map { my $v = $r->{msg}{$_} // ""; $v =~ s/[\t\n]/ /g; $v }
			qw(result error_type error_msg);
	}
}
$records or die "no records\n";
open(my $j, ">", $job) or die "$job: $!\n";
print $j join("\t", @end), "\n" if @end;
' "$log" "$work/console.log" "$work/job" 2>"$work/err" ||
	DIE_STATUS=2 die "$log is not a LAVA job log ({dt, lvl, msg} records, one a line): $(cat "$work/err")"

IFS=$'\t' read -r result type msg <"$work/job" || true
kernel=0
grep -aqE 'Linux version [0-9]' "$work/console.log" && kernel=1
case ${result:-none},$type,$kernel in
pass,*)
	echo "LAVA job: Complete" >"$out/lava.txt"
	;;
fail,Infrastructure,1 | fail,Job,1 | fail,Test,1 | fail,LAVATimeout,1)
	echo "LAVA job: Incomplete after the kernel started ($type error: $msg): the console is judged" >"$out/lava.txt"
	;;
none,*)
	echo "infrastructure error: the log has no end (no lava job result): truncated, or the job still running" |
		tee "$out/lava.txt" >&2
	exit 3
	;;
*)
	{
		if [ "$type" = Canceled ]; then
			printf 'infrastructure error: LAVA job Canceled (%s)' "$msg"
		else
			printf 'infrastructure error: LAVA job Incomplete (%s error: %s)' "${type:-no}" "$msg"
		fi
		[ $kernel -eq 1 ] || printf ', before the kernel started'
		echo
	} | tee "$out/lava.txt" >&2
	exit 3
	;;
esac
mv "$work/console.log" "$out/console.log"
