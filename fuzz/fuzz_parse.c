/*
 * fuzz_parse.c - the libFuzzer harnesses' shared state and bytes -> IR
 * step (see fuzz_parse.h).  Not a harness itself.
 */
#include "fuzz_parse.h"

#include <stdlib.h>
#include <string.h>

#include "common/xalloc.h"
#include "frontend/frontend.h"

struct fuzz_parse *fuzz_parse_state(void)
{
	static struct fuzz_parse st;
	if (!st.fe) {
		st.fe = frontend_new();
		st.null = fopen("/dev/null", "w");
		if (!st.null)
			abort();
	}
	return &st;
}

struct ir_program *fuzz_parse(struct fuzz_parse *st, const uint8_t *data,
			      size_t size)
{
	char *text = xmalloc(size + 1);
	memcpy(text, data, size);
	text[size] = '\0';
	struct diag d = {0};
	struct ir_program *prog = frontend_parse_text(st->fe, "fuzz.litmus",
						      text, &d);
	free(text);
	if (!prog && !d.set)
		abort(); /* an error without a message */
	return prog;
}
