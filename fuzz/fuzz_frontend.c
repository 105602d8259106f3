/*
 * fuzz_frontend.c - libFuzzer harness for the front end: any bytes as a
 * litmus test (or, when they start with '#', a whole C program), parsed
 * into IR, then the IR printed (--dump-ir) and turned into C (--to-c), both
 * to /dev/null.  A located error is a fine outcome; a crash, a leak or a
 * sanitizer report is a bug.
 *
 * It does not check anything with Z3 (fuzz_check.c does).  Built by
 * `make fuzz` with clang -fsanitize=fuzzer,address,undefined.
 */
#include "fuzz_parse.h"

#include "frontend/frontend.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_parse *st = fuzz_parse_state();
	struct ir_program *prog = fuzz_parse(st, data, size);
	if (!prog)
		return 0;
	ir_dump(prog, st->null);
	struct diag d = {0};
	ir_to_c(prog, st->null, &d);
	ir_program_free(prog);
	return 0;
}
