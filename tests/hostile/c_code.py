#!/usr/bin/env python3
"""tests/hostile/c_code.py FILE.c: print FILE.c without its comments and
string and character literals (what is left is code), for
tests/e2e-hostile.sh to look for text that must stay data."""
import re
import sys

text = open(sys.argv[1], encoding="utf-8", errors="replace").read()
token = re.compile(r'//[^\n]*|/\*.*?\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
sys.stdout.write(token.sub(" ", text))
