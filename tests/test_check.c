/*
 * test_check.c - unit tests of common/check.h and of the IR's invariants
 * (frontend/ir_check.c): a check that holds does nothing, one that fails
 * aborts with its file, condition and message on stderr, and
 * ir_program_check accepts valid IR and stops at each broken index.  The
 * failing calls run in a child process, since they abort.
 */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "common/check.h"
#include "frontend/ir.h"
#include "tests/irb.h"

/* Run fn(arg) in a child; its stderr (at most size - 1 bytes) into err.
 * Returns 1 when the child died of SIGABRT, 0 when it returned. */
static int aborts(void (*fn)(void *), void *arg, char *err, size_t size)
{
	int fd[2];
	assert_int_equal(pipe(fd), 0);
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(fd[0]);
		dup2(fd[1], 2);
		fn(arg);
		_exit(0);
	}
	close(fd[1]);
	size_t n = 0;
	ssize_t k;
	while (n + 1 < size && (k = read(fd[0], err + n, size - 1 - n)) > 0)
		n += (size_t)k;
	err[n] = '\0';
	close(fd[0]);
	int st = 0;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		return 0;
	assert_true(WIFSIGNALED(st) && WTERMSIG(st) == SIGABRT);
	return 1;
}

static void fail_arith(void *arg)
{
	int four = *(int *)arg;
	CHECK(four + 1 == 4, "four is %d", four);
}

static void pass_arith(void *arg)
{
	int four = *(int *)arg;
	CHECK(four == 4, "four is %d", four);
	/* off in this build: only the ASan and fuzz builds define
	 * LKMMC_CHECK_DEEP */
	CHECK_DEEP(four == 5, "deep checks are off here");
}

static void test_check(void **state)
{
	(void)state;
	char err[512];
	int four = 4;
	assert_false(aborts(pass_arith, &four, err, sizeof err));
	assert_string_equal(err, "");
	assert_true(aborts(fail_arith, &four, err, sizeof err));
	assert_non_null(strstr(err, "lkmmc: check failed: tests/test_check.c:"));
	assert_non_null(strstr(err, ": four + 1 == 4: four is 4"));
	assert_int_equal(check_deep, 0);
}

/* A valid program: P0 stores x and reads y into r0, P1 the converse,
 * exists (0:r0=0 /\ 1:r0=0), y observed. */
static struct irb sb(void)
{
	struct irb b = irb_new("SB", 2, 2);
	for (int t = 0; t < 2; t++) {
		irb_store(&b, irb_body(&b, t), t, irb_num(&b, 1), IR_ORD_ONCE);
		irb_fence(&b, irb_body(&b, t), IR_F_MB);
		irb_load(&b, irb_body(&b, t), 0, 1 - t, IR_ORD_ONCE);
	}
	irb_exists(&b, irb_and(&b, irb_reg_is(&b, 0, 0, 0), irb_reg_is(&b, 1, 0, 0)));
	irb_observe(&b, -1, 1);
	return b;
}

static void check_program(void *arg)
{
	ir_program_check(arg);
}

/* ir_program_check on p aborts, saying want. */
static void breaks(struct irb *b, const char *want)
{
	char err[512];
	assert_true(aborts(check_program, b->p, err, sizeof err));
	if (!strstr(err, want))
		fail_msg("wanted \"%s\" in: %s", want, err);
	ir_program_free(b->p);
}

static void test_ir_check(void **state)
{
	(void)state;
	char err[512];
	struct irb b = sb();
	assert_false(aborts(check_program, b.p, err, sizeof err));
	ir_program_free(b.p);

	b = sb(); /* a load into a register P0 does not have */
	b.p->threads[0].body.items[2].dst = 7;
	breaks(&b, "destination register 7 of 2");

	b = sb(); /* a store to a location the program does not have */
	b.p->threads[1].body.items[0].a = irb_loc(&b, 5);
	breaks(&b, "location 5 of 2");

	b = sb(); /* a break outside any loop */
	irb_add(&b, irb_body(&b, 1), IR_BREAK);
	breaks(&b, "break or continue outside a loop");

	b = sb(); /* the condition observes a thread that does not exist */
	b.p->cond->a->lhs.thread = 3;
	breaks(&b, "observed register 0 of thread 3");

	b = sb(); /* threads out of order */
	b.p->threads[1].id = 0;
	breaks(&b, "thread 1 has id 0");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_ir_check),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
