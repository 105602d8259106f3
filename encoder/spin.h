/*
 * spin.h - the registers a loop iteration hands on, for the encoder's
 * side-effect-free iterations (spin.c).
 */
#ifndef LKMMC_ENCODER_SPIN_H
#define LKMMC_ENCODER_SPIN_H

#include "frontend/ir.h"

struct arena;

/* One flag per register of th (in a's memory): 1 when the value an
 * iteration of loop (an IR_LOOP of th) leaves in it can be read by the
 * next iteration or after the loop; 0 when every path overwrites it
 * first. */
unsigned char *spin_live_regs(struct arena *a, const struct ir_thread *th,
			      const struct ir_instr *loop);

/* One flag per location of prog (in a's memory): 1 when some plain store
 * (C assignment, not WRITE_ONCE) may write it. */
unsigned char *spin_plain_written(struct arena *a, const struct ir_program *prog);

#endif
