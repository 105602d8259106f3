# lkmmc - a SAT/SMT bounded model checker for the Linux-kernel memory model.
#
#   make deps     install the Debian packages lkmmc needs (idempotent, as root)
#   make          build ./lkmmc
#   make demo     deps + build + check a bundled litmus test
#   make check    build and run every test (unit + end-to-end)
#   make check-layers  no folder includes one above it (part of check)
#   make asan     build ./lkmmc-asan with AddressSanitizer + UBSan
#   make check-asan  lkmmc-asan over litmus-tests/ and the kernel's tests
#                 (part of check): no sanitizer report
#   make fuzz     build the libFuzzer harnesses (fuzz/) with clang and run
#                 each for FUZZ_SECONDS (60) from a seed corpus of
#                 litmus-tests/ and ../shared/corpus; crashes in
#                 build/fuzz/artifacts (installs clang's runtime if missing)
#   make install  the binary, man page, bash completion and the headers for
#                 C programs (include/, for reading) under PREFIX
#                 (/usr/local; DESTDIR honoured); make uninstall
#   make conformance   compare with herd7's answers in ../shared (long)
#   make conformance-programs  every test of ../shared/corpus checked as
#                 litmus and as the C program --to-c makes of it: same
#                 answers, flags and failing assertions (long)
#   make conformance-deps  the same on ../shared/deps (1,000 tests of
#                 dependencies through registers and branches; ~1 min)
#   make conformance-genmc  GenMC v0.9's 98 LKMM programs (read from
#                 ../shared/peers at run time), each with its expected
#                 answer (~10 s)
#   make bench    time lkmmc (and herd7, or its recorded times) on the
#                 scaling families: table, build/bench/results.csv and
#                 scaling.png; BENCH_ARGS="..." passes bench/bench.sh options
#   make bench-random  full mode against --exists-only on 200 random tests
#                 of 5-8 threads (bench/gen-random.py, seed 1): table in
#                 build/bench/random; RANDOM_ARGS="..." passes bench/random.sh
#                 options (--seed, --count, --timeout)
#   make bench-z3-intake  how long Z3 takes to take in N Horn clauses that
#                 need no search (bench/z3-intake.c; docs/benchmarks.md)
#   make check-kernel-scripts  the kernel's LKMM scripts run lkmmc (kernel/patches)
#   make check-kernel-corpus   the same scripts judge ../shared/corpus (long)
#   make check-kernel-trees    the same scripts of Linux 6.12's and 7.2's trees in ../shared
#   make check-kernel  every litmus test as a kernel module in a QEMU guest,
#                      observed states checked against lkmmc's (kernel/)
#   make deb-deps the Debian packaging tools (debhelper, lintian, ...)
#   make deb      build/deb/lkmmc_*.deb with dpkg-buildpackage from a clean
#                 clone of HEAD (debian/), then lintian on it
#   make check-deb  the long packaging test: make deb, install the .deb,
#                 run the installed lkmmc (tests/e2e-deb.sh; a few minutes)

CC      ?= cc
# libclang 17 or later: it gives the operator of an expression
# (clang_getCursorBinaryOperatorKind); Debian 12 has 19 as libclang-19-dev.
LLVM_DIR ?= /usr/lib/llvm-19
CFLAGS  ?= -O2 -g
# Always applied, also when CFLAGS is given on the command line (make asan).
ALL_CFLAGS = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Werror -I. -I$(LLVM_DIR)/include $(CFLAGS)
# Where the binary looks for libclang at run time; empty for the Debian
# package (debian/rules), whose libclang is on the default path.
RPATH   ?= -Wl,-rpath,$(LLVM_DIR)/lib
LDLIBS  += -L$(LLVM_DIR)/lib $(RPATH) -lclang -lz3 -lm

# Where the kernel's tools/memory-model is extracted (git-ignored).
KTREE   := build/linux
LKMM_DIR := $(KTREE)/tools/memory-model

LIB_SRCS := $(wildcard common/*.c frontend/*.c encoder/*.c models/*.c \
	models/cat/*.c solver/*.c repair/*.c report/*.c cli/*.c kernel/*.c)
# Every header of the tree: an object is rebuilt when any changes.
HDRS := $(wildcard */*.h */*/*.h)
# The kernel-module harness (kernel/harness.tmpl) as a C string for --kmod.
KMOD_HARNESS_C := build/gen/kmod_harness.c
# The headers of include/ built in for whole C programs (frontend/cheaders.h).
CHEADERS_C := build/gen/cheaders.c
CHEADERS := $(sort $(wildcard include/*.h))
LIB_OBJS := $(LIB_SRCS:%.c=build/obj/%.o) build/obj/$(KMOD_HARNESS_C:.c=.o) \
	build/obj/$(CHEADERS_C:.c=.o)
MAIN_OBJ := build/obj/lkmmc.o
TEST_SRCS := $(wildcard tests/test_*.c)
TEST_BINS := $(TEST_SRCS:tests/%.c=build/tests/%)

DEB_PACKAGES := build-essential pkg-config libz3-dev z3 libclang-19-dev \
	libcmocka-dev graphviz linux-source gnuplot-nox time groff-base python3 \
	parallel

.PHONY: deb deb-deps check-deb fuzz fuzz-deps fuzz-build asan check-asan
.PHONY: all deps kernel-tree demo check check-layers unit e2e asan install uninstall conformance conformance-deps conformance-programs conformance-genmc bench bench-random bench-z3-intake clean \
	check-kernel-scripts check-kernel-corpus check-kernel-trees check-kernel kernel-deps
all: lkmmc

# CPPFLAGS and LDFLAGS: empty here, dpkg-buildflags' hardening in debian/.
lkmmc: $(LIB_OBJS) $(MAIN_OBJ)
	$(CC) $(ALL_CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

build/obj/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) -c -o $@ $<

$(KMOD_HARNESS_C): kernel/harness.tmpl
	@mkdir -p $(dir $@)
	{ echo '/* Generated from kernel/harness.tmpl by the Makefile. */'; \
	  echo 'const char kmod_harness_text[] ='; \
	  sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $<; \
	  echo ';'; } > $@

$(CHEADERS_C): $(CHEADERS)
	@mkdir -p $(dir $@)
	{ echo '/* Generated from include/ by the Makefile. */'; \
	  echo '#include "frontend/cheaders.h"'; \
	  echo 'const struct cheader cheaders[] = {'; \
	  for h in $(CHEADERS); do \
	    echo "{ \"$$(basename $$h)\","; \
	    sed -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $$h; \
	    echo '},'; \
	  done; \
	  echo '{ 0, 0 } };'; } > $@

# What the unit tests share: the IR builder, an encoded program's solver,
# the front end and relation contexts they set up.
TEST_LIB := tests/irb.c tests/encfix.c tests/testutil.c

build/tests/%: tests/%.c $(TEST_LIB) $(TEST_LIB:.c=.h) $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< $(TEST_LIB) $(LIB_OBJS) $(LDLIBS) -lcmocka

# $(call apt_install,PACKAGES,EXTRA APT OPTIONS): install the missing ones.
define apt_install
	@missing=""; for p in $(1); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $(2) $$missing; \
	else echo "all Debian packages present: $(1)"; fi
endef

deps:
	$(call apt_install,$(DEB_PACKAGES),)
	@$(MAKE) --no-print-directory kernel-tree

# The kernel's memory model and litmus tests, from Debian's linux-source.
kernel-tree: $(LKMM_DIR)/linux-kernel.cat
$(LKMM_DIR)/linux-kernel.cat:
	@test -f /usr/src/linux-source-6.1.tar.xz || { echo "linux-source is not installed: run 'make deps'"; exit 1; }
	@mkdir -p $(KTREE)
	tar -xJf /usr/src/linux-source-6.1.tar.xz -C $(KTREE) --strip-components=1 --wildcards '*/tools/memory-model/*'
	@touch $@

demo: deps lkmmc
	./lkmmc litmus-tests/SB+mbs.litmus litmus-tests/SB+pos.litmus

unit: $(TEST_BINS)
	@set -e; for t in $(TEST_BINS); do echo "== $$t"; $$t; done

e2e: lkmmc kernel-tree
	@bash tests/e2e.sh

# (build/bench/z3-intake: built, not run, so that it keeps compiling)
check: check-layers lkmmc unit e2e check-asan check-kernel-scripts build/bench/z3-intake

# No folder includes one above it (the README's picture; the table is in
# the script), and the script itself fails on an injected upward include.
check-layers:
	@bash tests/check-layers.sh
	@bash tests/check-layers.sh --self-test

# The kernel's tools/memory-model/scripts run lkmmc, with kernel/patches
# applied to a fresh tree from linux-source (about a minute; part of check).
check-kernel-scripts: lkmmc
	@bash tests/kernel-scripts.sh

# checkghlitmus.sh over ../shared/corpus, lkmmc against herd7's recorded
# answers (long; KS_HERDOPTS="-conf linux-kernel.cfg -speedcheck fast" for
# verdicts only, --sample N via KS_ARGS="--sample N").
check-kernel-corpus: lkmmc
	@bash tests/kernel-scripts.sh --corpus $(KS_ARGS)

# checkalllitmus.sh and checkghlitmus.sh of ../shared/lkmm/6.12 and 7.2's
# tools/memory-model (copies; lkmmc as their herd7) judge every test as
# expected (about a minute; not part of check; KS_ARGS="--tree DIR" for
# another tree).
check-kernel-trees: lkmmc
	@bash tests/kernel-scripts.sh $(or $(KS_ARGS),--trees)

# Debian's kernel, its headers, QEMU and what the guest's initramfs needs.
KERNEL_PACKAGES := linux-image-amd64 linux-headers-amd64 qemu-system-x86 \
	busybox-static kmod cpio
kernel-deps:
	$(call apt_install,$(KERNEL_PACKAGES),--no-install-recommends)

check-kernel: kernel-deps lkmmc kernel-tree
	@bash kernel/check-kernel.sh

# make install [PREFIX=/usr/local] [DESTDIR=...]; make uninstall.
PREFIX  ?= /usr/local
BINDIR  := $(PREFIX)/bin
MANDIR  := $(PREFIX)/share/man/man1
COMPDIR := $(PREFIX)/share/bash-completion/completions
# lkmmc's headers for C programs, for reading (lkmmc has them built in).
INCDIR  := $(PREFIX)/include/lkmmc
# The bundled litmus tests with their expected states, as examples.
EXDIR   := $(PREFIX)/share/lkmmc/litmus-tests
EXAMPLES := $(wildcard litmus-tests/*.litmus litmus-tests/*.states litmus-tests/*.h)
install: lkmmc
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(COMPDIR)
	install -m 755 lkmmc $(DESTDIR)$(BINDIR)/lkmmc
	install -m 644 docs/lkmmc.1 $(DESTDIR)$(MANDIR)/lkmmc.1
	install -m 644 cli/lkmmc.bash-completion $(DESTDIR)$(COMPDIR)/lkmmc
	install -d $(DESTDIR)$(INCDIR) $(DESTDIR)$(EXDIR)
	install -m 644 $(CHEADERS) $(DESTDIR)$(INCDIR)
	install -m 644 $(EXAMPLES) $(DESTDIR)$(EXDIR)

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/lkmmc $(DESTDIR)$(MANDIR)/lkmmc.1 $(DESTDIR)$(COMPDIR)/lkmmc
	rm -f $(addprefix $(DESTDIR)$(INCDIR)/,$(notdir $(CHEADERS)))
	rm -f $(addprefix $(DESTDIR)$(EXDIR)/,$(notdir $(EXAMPLES)))
	-rmdir $(DESTDIR)$(INCDIR) $(DESTDIR)$(EXDIR) $(DESTDIR)$(PREFIX)/share/lkmmc 2>/dev/null

# The Debian package (debian/), built from a clean clone of HEAD: what is
# not committed is not in it.
DEB_BUILD_PACKAGES := debhelper dpkg-dev fakeroot lintian git
deb-deps:
	$(call apt_install,$(DEB_BUILD_PACKAGES) libclang-19-dev libz3-dev,--no-install-recommends)

deb:
	@bash tests/e2e-deb.sh --build-only

check-deb:
	@bash tests/e2e-deb.sh

# ./lkmmc-asan: the same sources built apart (build/asan/obj) with
# AddressSanitizer and UBSan; any report aborts the run.
# LKMMC_CHECK_DEEP: common/check.h's deep invariant checks, on here and in
# the fuzz build.
ASAN_FLAGS := -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all -DLKMMC_CHECK_DEEP
ASAN_OBJS := $(patsubst build/obj/%,build/asan/obj/%,$(LIB_OBJS) $(MAIN_OBJ))

build/asan/obj/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(ALL_CFLAGS) $(ASAN_FLAGS) -c -o $@ $<

lkmmc-asan: $(ASAN_OBJS)
	$(CC) $(ALL_CFLAGS) $(ASAN_FLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

asan: lkmmc-asan

# lkmmc-asan over litmus-tests/ and the kernel's 34 (part of check; about
# 15 s of CPU): no sanitizer report.
check-asan: lkmmc-asan kernel-tree
	@bash tests/e2e-asan.sh

conformance: lkmmc
	@bash bench/conformance.sh

conformance-programs: lkmmc
	@bash bench/conformance-programs.sh

conformance-deps: lkmmc
	@bash bench/conformance-deps.sh --timeout 20

conformance-genmc: lkmmc
	@bash bench/conformance-genmc.sh

# The default run: every family at N = 2..8, 10, 12, ... 24, full and exists-only,
# 3 repetitions, 10 s per run (about 5 minutes here; nice'd).
BENCH_ARGS ?=
bench: lkmmc kernel-tree
	@nice bash bench/bench.sh $(BENCH_ARGS)

# Random tests (locks, RCU, RMWs, fences; 5-8 threads): each checked once
# in full mode and once with --exists-only, one at a time, 60 s each; the
# verdicts must agree (nice'd; long: tens of minutes).
RANDOM_ARGS ?=
bench-random: lkmmc
	@nice bash bench/random.sh $(RANDOM_ARGS)

# Z3's cost of taking in clauses, apart from lkmmc: 40,000 variables and
# 25,000 to 400,000 Horn clauses (about a minute).
build/bench/z3-intake: bench/z3-intake.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -o $@ $< -lz3
bench-z3-intake: build/bench/z3-intake
	@for c in 25000 50000 100000 200000 400000; do $< 40000 $$c; done

# libFuzzer harnesses (fuzz/): the library built again with clang 14, whose
# Debian runtime (libclang-rt-14-dev) has libFuzzer, under ASan and UBSan.
# Each fuzzer runs FUZZ_SECONDS from its own corpus (kept across runs, in
# build/fuzz/corpus-NAME) and the seeds; the checker's inputs are kept
# small (-max_len) and each has 2 s of Z3 (fuzz/fuzz_check.c).
# (clang warns of string lists split over lines that gcc accepts.)
FUZZ_CC ?= clang-14
FUZZ_SECONDS ?= 60
FUZZ_FLAGS := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all \
	-fno-omit-frame-pointer -Wno-string-concatenation -DLKMMC_CHECK_DEEP
FUZZ_OBJS := $(LIB_OBJS:build/obj/%=build/fuzz/obj/%)
FUZZERS := build/fuzz/fuzz_frontend build/fuzz/fuzz_check
FUZZ_PACKAGES := clang-14 libclang-rt-14-dev

fuzz-deps:
	$(call apt_install,$(FUZZ_PACKAGES),--no-install-recommends)

build/fuzz/obj/%.o: %.c $(HDRS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(ALL_CFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

build/fuzz/%: fuzz/%.c fuzz/fuzz_parse.c fuzz/fuzz_parse.h $(FUZZ_OBJS)
	$(FUZZ_CC) $(ALL_CFLAGS) $(FUZZ_FLAGS) -fsanitize=fuzzer -o $@ $< fuzz/fuzz_parse.c $(FUZZ_OBJS) $(LDLIBS)

# Kept between runs (pattern-rule prerequisites would be removed).
.SECONDARY: $(FUZZ_OBJS)

fuzz-build: $(FUZZERS)

fuzz: fuzz-deps
	@$(MAKE) --no-print-directory fuzz-build
	@bash fuzz/run.sh $(FUZZ_SECONDS)

clean-obj:
	rm -rf build/obj build/tests build/asan

clean: clean-obj
	rm -rf build/fuzz
	rm -f lkmmc lkmmc-asan
