/*
 * encoder.h - from an ir_program to a symbolic candidate-execution space.
 *
 * The encoder runs each thread symbolically (loops unrolled to a bound) and
 * produces events as herd7 does for each primitive (the kernel's
 * tools/memory-model/linux-kernel.def; ../shared/LKMM-NOTES.md beside this
 * tree): each event has a guard (its path condition), an address and a
 * value, all Z3 terms.  It computes the static relations in C (po, int/ext,
 * rmw, addr, data, ctrl) and encodes the dynamic choices of an execution:
 * rf (one variable per write/read pair that may alias), co (integer
 * timestamps per write, initial write first), and the derived fr, plus the
 * lock rules of lock.cat that shape co and rf for spinlocks.  It does not
 * know the memory model's axioms: models/ builds those from the relations
 * here.
 */
#ifndef LKMMC_ENCODER_H
#define LKMMC_ENCODER_H

#include <z3.h>

#include "encoder/rel.h"
#include "common/diag.h"
#include "frontend/ir.h"

struct value_sets;

/* Event classes (bit numbers), named after the cat sets they feed. */
enum ev_class {
	EVC_R, EVC_W, EVC_F, EVC_SRCU, EVC_IW,
	EVC_ONCE, EVC_ACQUIRE, EVC_RELEASE, EVC_NORETURN, EVC_RMW,
	EVC_LKR, EVC_LKW, EVC_UL, EVC_LF, EVC_RL, EVC_RU,
	EVC_SRCU_LOCK, EVC_SRCU_UNLOCK, EVC_SYNC_SRCU,
	EVC_MB, EVC_RMB, EVC_WMB, EVC_BARRIER,
	EVC_RCU_LOCK, EVC_RCU_UNLOCK, EVC_SYNC_RCU,
	EVC_BEFORE_ATOMIC, EVC_AFTER_ATOMIC, EVC_AFTER_SPINLOCK,
	EVC_AFTER_UNLOCK_LOCK,
	EVC_COUNT
};
#define EVC_BIT(c) (1ul << (c))

struct event {
	int thread;            /* process id, -1 for an initial write */
	int po;                /* position in the thread's program order */
	unsigned long cls;     /* EVC_BIT set of its classes */
	unsigned long tags;    /* its model tags (bits of prog->tag_names:
				* a .def read with the model), else 0 */
	Z3_ast guard;          /* executed iff this holds */
	Z3_ast addr;           /* address (Int), NULL for fences */
	int loc;               /* location when static, -1 when symbolic/none */
	Z3_ast val;            /* value read or written (Int), NULL if none */
	const struct ir_instr *instr; /* the source instruction, NULL for IW */
	int rmw_peer;          /* the other event of its RMW pair, -1 if none */
	int *addr_dep, naddr_dep; /* reads whose values reach the address */
	Z3_ast *addr_dep_cond;    /* when each does (NULL array/entry: always) */
	int *data_dep, ndata_dep; /* reads whose values reach the stored value */
	Z3_ast *data_dep_cond;    /* when each does (NULL array/entry: always) */
	int *ctrl_dep, nctrl_dep; /* reads deciding a branch this event is in */
	Z3_ast *ctrl_dep_cond;    /* when each does (NULL array/entry: always) */
};

/* A loop still running when its unroll bound is reached, on some path.
 * An iteration "stutters" when it writes nothing and leaves the registers
 * as it found them: the next one can repeat it exactly. */
struct enc_bound {
	const struct ir_instr *loop; /* the IR_LOOP */
	int thread;            /* its thread */
	Z3_ast reach;          /* the path would start iteration bound+1 */
	Z3_ast stutter_any;    /* some iteration on the path stuttered */
	Z3_ast last_stutter;   /* the last one did */
	int first_ev, end_ev;  /* events [first_ev, end_ev) of the last
				* iteration */
	int spin;              /* 1: not a bound but a path going on after
				* an iteration without effect (symex_path.c),
				* never cut off, dropped from the verdict */
};

/* An assertion in thread code (IR_ASSERT). */
struct enc_assert {
	const struct ir_instr *instr; /* the IR_ASSERT */
	int thread;            /* its thread */
	Z3_ast fails;          /* executed and its condition is false */
};

struct encoder_options {
	int unroll;      /* loop iterations kept (herd7's default is 2) */
	double deadline; /* --timeout: rc.deadline of the encoding (0: none) */
	int coherent;    /* the model has the axiom acyclic(po-loc | com): co
			  * and rf may follow program order statically within
			  * a thread (see enc_overwritten) */
	int atomic;      /* with coherent: it also has empty(rmw & (fre ;
			  * coe)), so each RMW reads its write's
			  * co-predecessor (encoding.final_count) */
	struct memlimit *limit; /* rc.limit of the encoding: the check's
			  * memory limit (NULL: none) */
	long max_memory_kb; /* --max-memory: refuse before building when the
			  * encoding cannot fit (0: no limit) */
};

struct encoding {
	Z3_context z;               /* the Z3 context everything lives in */
	struct arena *arena;        /* per-test allocations */
	const struct ir_program *prog; /* the program encoded */
	struct event *ev;           /* the events; initial writes first */
	int n;                      /* number of events */
	Z3_ast *guard;              /* guard of each event (rel_ctx uses it) */
	struct rel_ctx rc;          /* relation algebra over these events */
	Z3_ast_vector facts;        /* the program's constraints (always hold) */
	int coherent;               /* encoder_options.coherent was set */
	int bits_linear;            /* enc_bits_linear(prog): every bitwise
				     * operator is made linear arithmetic,
				     * no bit-vector term */
	struct value_sets *values;  /* what each register and location can
				     * hold (values.h); NULL without bitwise
				     * operators */
	/* Static relations (guards included) and the execution's choices. */
	rel_t po, int_, ext, loc, rmw, addr, data, ctrl;
	rel_t rf, co, fr;
	rel_t critical;             /* lock.cat's critical: LKW -> its UL */
	set_t cls[EVC_COUNT];       /* one set per event class */
	Z3_ast *final_loc;          /* final value of each location */
	Z3_ast *final_count;        /* per location, NULL or "final_loc is the
				     * initial value plus the changes of the
				     * RMWs executed": true in every execution
				     * the model allows, given to the questions
				     * that need it (build_final_count) */
	Z3_ast **final_reg;         /* final value of each thread's registers */
	Z3_ast *ts;                 /* co timestamp of each write, else NULL */
	Z3_ast *rts;                /* timestamp of the write a read reads from */
	Z3_ast *rf_var;             /* n*n: rf choice variables (NULL if none) */
	struct rel_keyed keyed;     /* co, fr and rf by their timestamps, for
				     * rel_seq (rel.h); rc.keyed points here */
	Z3_ast *defined;            /* per read: its value is not out of thin
				     * air; NULL when no value can be */
	Z3_ast_vector drop;         /* herd7's cut: no path runs past the
				     * unroll bound (the checker asserts it
				     * for the verdict, bounds.c does not) */
	struct enc_bound *bounds;   /* loops running at the bound, by path */
	int nbounds;                /* how many */
	unsigned ndefs_program;     /* entries of rc.defs made by the encoder
				     * (the models' definitions follow) */
	struct enc_assert *asserts; /* assertions reached on some path */
	int nasserts;               /* how many */
};

/* The value of a read whose value would come out of thin air (herd7 leaves
 * it a symbol; the output prints it as such). */
#define ENC_SYMBOLIC 0x3fffffffL

/* How the solver's arithmetic is set up for one attempt at a test. */
enum enc_arith {
	ENC_ARITH_DIFF,    /* difference logic, no relevancy filter: the fast set-up */
	ENC_ARITH_GENERAL, /* Z3's general linear arithmetic: always applicable */
};

/* The set-up to try first for prog (arith_mode.c): general arithmetic
 * straight away when the program visibly computes beyond difference logic,
 * which spares a failed first attempt. */
enum enc_arith enc_arith_mode(const struct ir_program *prog);

/* Encode prog.  Returns NULL and fills d on unsupported input. */
struct encoding *encode_program(Z3_context z, const struct ir_program *prog,
				const struct encoder_options *opt,
				struct diag *d);
void encoding_free(struct encoding *enc);

/* enc with the choices of the execution m (a model of enc's program) made
 * constants: a model built over it folds to its answer on that execution
 * (instance.c).  It shares the rest with enc, which must outlive it; free
 * it with enc_instance_free, never encoding_free. */
struct encoding *enc_instance(const struct encoding *enc, Z3_model m);
void enc_instance_free(struct encoding *inst);

/* Add f to enc->facts: a constraint every execution satisfies. */
void enc_fact(struct encoding *enc, Z3_ast f);

/* With encoder_options.coherent: is write w never co-last, nor read by
 * read r (r < 0: never co-last) in any coherent execution, because a
 * po-later write of the same thread to the same location executes whenever
 * w does (before r, when r is given)?  Always 0 without it. */
int enc_overwritten(const struct encoding *enc, int w, int r);

/* The address constant of location loc, and the location an address value
 * names (-1 if it names none). */
long enc_loc_address(int loc);
int enc_address_loc(const struct encoding *enc, long value);

/* The Boolean an IR_E_CHOICE num k stands for (the same term in every
 * call with the same context): --repair's search assumes it true or
 * false, nothing in the encoding constrains it. */
Z3_ast enc_choice(Z3_context z, long k);

/* The sequentially consistent execution of the schedule that places
 * event e at pos[e] (distinct positions from 1 keeping each thread's
 * program order; initial writes' are ignored): co timestamps are the
 * positions, each read reads from the last write to its address placed
 * before it (schedule.c).  A read at -k is placed at k softly: its own
 * constraints are not in the formula but in soft[r] (dropped when soft
 * is NULL; entries of other events are left as they are). */
Z3_ast enc_schedule(struct encoding *enc, const int *pos, Z3_ast *soft);

/* Z3 term for an observable's final value. */
Z3_ast enc_observable(const struct encoding *enc, struct ir_observable o);
/* Z3 formula for a final condition. */
Z3_ast enc_cond(const struct encoding *enc, const struct ir_cond *c);

/* Short description of an event ("P1:12 R[once] y"), for output. */
const char *enc_event_name(const struct encoding *enc, int e);

#endif
