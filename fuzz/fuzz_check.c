/*
 * fuzz_check.c - libFuzzer harness for the whole checker: any bytes parsed
 * as in fuzz_frontend.c, then, when they parse, checked with Z3 under the
 * built-in model with a 2-second time limit.  The input's length picks the
 * mode (full, --exists-only, --witness, --explain) so that one corpus
 * exercises all four.  Memory is bounded by libFuzzer's -rss_limit_mb and
 * the inputs' size by -max_len (fuzz/run.sh).
 *
 * It does not fuzz options, models read from cat files or batch mode.
 */
#include "fuzz_parse.h"

#include <stdlib.h>

#include "solver/check.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_parse *st = fuzz_parse_state();
	struct ir_program *prog = fuzz_parse(st, data, size);
	if (!prog)
		return 0;
	struct check_options opt = {
		.unroll = 2, .timeout_ms = 2000,
		.exists_only = size % 4 == 1, .witness = size % 4 == 2,
		.explain = size % 4 == 3,
	};
	struct checker *c = checker_new(&opt);
	checker_set_err(c, st->null);
	struct check_result r = {0};
	if (!checker_run(c, prog, st->null, &r) && !r.error.set)
		abort(); /* could not check it, without saying why */
	check_result_free(&r);
	checker_free(c);
	ir_program_free(prog);
	return 0;
}
