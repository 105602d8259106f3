/*
 * fuzz_parse.h - what the libFuzzer harnesses share: the front end kept
 * across inputs, /dev/null for outputs, and the bytes -> IR step.
 *
 * It does not check or print anything.
 */
#ifndef LKMMC_FUZZ_PARSE_H
#define LKMMC_FUZZ_PARSE_H
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "frontend/ir.h"

/* libFuzzer calls LLVMFuzzerTestOneInput with no context, so each harness
 * keeps one of these in a static, made once and never freed (a libclang
 * index is costly to build; LeakSanitizer does not count what a static
 * still points to). */
struct fuzz_parse {
	struct frontend *fe; /* kept across inputs, as in a batch */
	FILE *null;          /* /dev/null: where outputs and warnings go */
};

/* The shared state, made on the first call. */
struct fuzz_parse *fuzz_parse_state(void);

/* Parse the bytes as a file named fuzz.litmus (the text up to the first
 * NUL byte, as the file reader rejects them).  Returns the program, or
 * NULL after a located error; aborts on an error without a message. */
struct ir_program *fuzz_parse(struct fuzz_parse *st, const uint8_t *data,
			      size_t size);
#endif
