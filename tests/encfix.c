/*
 * encfix.c - an encoded hand-built program and its solver; see encfix.h.
 */
#include "encfix.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <cmocka.h>

#include "encoder/encoder.h"
#include "solver/states.h"

static void assert_all(Z3_context z, Z3_solver s, Z3_ast_vector v)
{
	for (unsigned i = 0; i < Z3_ast_vector_size(z, v); i++)
		Z3_solver_assert(z, s, Z3_ast_vector_get(z, v, i));
}

void encfix_open(struct encfix *f, struct irb b)
{
	f->b = b;
	Z3_config cfg = Z3_mk_config();
	Z3_set_param_value(cfg, "model", "true");
	f->z = Z3_mk_context(cfg);
	Z3_del_config(cfg);
	struct diag d = {0};
	struct encoder_options eo = {.unroll = 2};
	f->enc = encode_program(f->z, b.p, &eo, &d);
	assert_non_null(f->enc);
	assert_true(lkmm_build(f->enc, 0, &f->m, &d));
	Z3_context z = f->z;
	f->s = Z3_mk_simple_solver(z);
	Z3_solver_inc_ref(z, f->s);
	f->p = Z3_mk_params(z);
	Z3_params_inc_ref(z, f->p);
	assert_all(z, f->s, f->enc->facts);
	assert_all(z, f->s, f->enc->drop);
	assert_all(z, f->s, f->enc->rc.defs);
	for (int a = 0; a < AX_COUNT; a++)
		if (f->m.axiom[a])
			Z3_solver_assert(z, f->s, f->m.axiom[a]);
}

void encfix_close(struct encfix *f)
{
	Z3_params_dec_ref(f->z, f->p);
	Z3_solver_dec_ref(f->z, f->s);
	encoding_free(f->enc);
	Z3_del_context(f->z);
	ir_program_free(f->b.p);
}

char *encfix_printed(const struct state_set *ss)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);
	state_set_print(ss, out);
	fclose(out);
	return buf;
}
