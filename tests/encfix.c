/*
 * encfix.c - an encoded hand-built program and its solver; see encfix.h.
 */
#include "encfix.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include "solver/options.h"
#include "solver/states.h"

void encfix_open(struct encfix *f, struct irb b)
{
	encfix_open_unroll(f, b, 2);
}

void encfix_open_unroll(struct encfix *f, struct irb b, int unroll)
{
	f->b = b;
	Z3_config cfg = Z3_mk_config();
	Z3_set_param_value(cfg, "model", "true");
	f->z = Z3_mk_context(cfg);
	Z3_del_config(cfg);
	struct diag d = {0};
	struct check_options opt = {.unroll = unroll};
	assert_int_equal(problem_open(&f->pr, f->z, b.p, &opt, unroll, 0, ENC_ARITH_GENERAL,
				      NULL, &d), PROBLEM_READY);
	f->enc = f->pr.enc;
	f->s = problem_solver(&f->pr, PG_CONSISTENT | PG_CUT, 0);
}

void encfix_close(struct encfix *f)
{
	Z3_solver_dec_ref(f->z, f->s);
	problem_close(&f->pr);
	Z3_del_context(f->z);
	ir_program_free(f->b.p);
}

char *encfix_printed(struct state_set *ss)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	state_set_print(ss, out);
	fclose(out);
	return buf;
}
