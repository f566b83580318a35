#!/usr/bin/env bash
# Writes astrolabe-cli.1 from the command line's own --help texts, so the manual page says
# exactly what the program says (one section per command).
#   packaging/manpage.sh PATH/TO/astrolabe-cli OUT.1 VERSION
set -euo pipefail
cli=$1 out=$2 version=$3
escape() { sed -e 's/\\/\\e/g' -e 's/^\./\\\&./' -e "s/^'/\\\\\\&'/"; }
{
    echo ".TH ASTROLABE-CLI 1 \"\" \"astrolabe $version\" \"User Commands\""
    echo ".SH NAME"
    echo "astrolabe-cli \\- run, store and compare simulations of distributed AI training platforms"
    echo ".SH SYNOPSIS"
    echo ".B astrolabe-cli"
    echo ".I command"
    echo "[options]"
    echo ".SH DESCRIPTION"
    echo ".nf"
    "$cli" --help | escape
    echo ".fi"
    # Commands are the indented lines of the top-level help: "  name   summary".
    "$cli" --help | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p' | while read -r command; do
        echo ".SH COMMAND: $command"
        echo ".nf"
        "$cli" "$command" --help 2>&1 | escape
        echo ".fi"
    done
    echo ".SH EXIT STATUS"
    echo "0 success; 1 bad input or a failed run; 2 usage error; 3 a simulation that cannot finish."
    echo ".SH SEE ALSO"
    echo ".BR astrolabe (1)"
} >"$out"
