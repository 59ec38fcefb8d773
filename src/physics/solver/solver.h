/* The soft-step contact solver (--solver soft), the base the one solver
 * grows from: all that the step and the world see of it. One
 * velocity-level solver for every contact, resting or hitting, normal and
 * tangential, with the contacts' impulses carried from step to step, and
 * islands that sleep whole, keep their contacts' impulses while asleep and
 * wake in part.
 *
 * A step: the contacts (ball-ball, ball-side, ball-wall) are listed once,
 * with a speculative margin, each given the impulses it ended the last
 * step with. Then, in each of BP_SOFT_SUBSTEPS substeps: gravity and drag;
 * the contacts' impulses applied again (warm start); BP_SOFT_SWEEPS
 * Gauss-Seidel sweeps over the contacts that stop the approach of every
 * touching pair and push overlaps out through a stiff, damped spring (soft
 * constraint);
 * positions moved; one more sweep without the push (relax), so that the
 * push leaves no speed behind. Last, the contacts that were hit faster
 * than a resting contact closes get their restitution, and the impulses
 * are kept for the next step. A step in which a ball would travel more
 * than a few of its radii is taken in two or four such pieces (step.c).
 *
 * Why: the impulses a pile carries are what holds it up. Carried from step
 * to step (and through sleep) they cancel gravity at once, so a pile at
 * rest stays exactly where it is, awake or woken, and a pile sleeps only
 * when it is at rest: an island (balls touching each other) sleeps when
 * every ball in it has been slow for BP_SOFT_SLEEP_AFTER_S. A sleeper
 * wakes alone, when a ball hits it or when a ball that moves comes within
 * a few contacts of it; the rest of its island sleeps on, holding it with
 * the impulses it fell asleep with, as it would hold it awake.
 *
 * The step is a list of stages (solver.c), one job to a file: the bodies
 * (bodies.c), the contacts (contacts.c), the impulses kept by contact
 * (contact_memory.c), the contacts' order (colour.c), the sweeps
 * (contact_solver.c), the hand that pulls a held ball (hand.c), islands
 * and sleep (islands.c), waking (wake.c), and the solver's state as a
 * whole (state.c). */
#ifndef BP_SOFT_SOLVER_H
#define BP_SOFT_SOLVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bodies.h"
#include "kept.h"

/* Substeps of a step (of each piece of a step split in pieces): each
 * moves the balls once between two sweeps. */
#define BP_SOFT_SUBSTEPS 4

void bp_soft_destroy(bp_soft *soft);

/* How far a ball sinks into a side or wall that carries its weight alone,
 * px: a contact is a spring that holds a load by pressing in, g / omega^2
 * for a weight (omega its angular rate, a part of the substep rate), so a
 * ball resting on the floor sits that much below touching (0.00088 px at
 * 980 px/s^2 and 120 Hz); under n weights, n times as deep, and between
 * two equal balls (the spring pushes half the mass) twice that. */
double bp_soft_sag(const bp_params *params);

/* The sweeps solve a block of contacts at a time in SIMD lanes where the
 * CPU has them (on by default), else contact by contact: the same bits
 * either way. Tests turn the lanes off to check that. */
void bp_soft_use_lanes(bool on);

/* One piece of a step: the step of dt seconds split into pieces equal
 * ones (a power of two: 1, 2 or 4), of which this is one (the world's
 * statics prepared), its sweeps shared with workers (NULL: none; the same
 * bits either way). The kept impulses stay those of a whole step's
 * substep: a piece recalls them divided by pieces and keeps them
 * multiplied back, exactly. false when memory runs out or the stop flag
 * is raised: the step is then unfinished. */
bool bp_soft_step(bp_world *world, double dt, int pieces, bp_workers *workers);

/* What a snapshot of the world keeps of the solver: the impulses kept by
 * contact, so that a world restored steps on as the saved one did, bit for
 * bit. 0 bytes: nothing (the solver never ran). */
size_t bp_soft_state_size(const bp_world *world);
/* Writes that part, bp_soft_state_size bytes, to out. */
void bp_soft_state_write(const bp_world *world, unsigned char *out);
/* Makes room to read a part of size bytes; false when memory runs out
 * (nothing else changes). */
bool bp_soft_state_reserve(bp_world *world, const unsigned char *in, size_t size);
/* Reads it back (after bp_soft_state_reserve); size 0 forgets all the
 * solver carried. */
void bp_soft_state_read(bp_world *world, const unsigned char *in, size_t size);

/* How many contacts the solver keeps (kept.h), and the k-th (k below
 * that), in order of what they join: bp_world_get_contact_impulses
 * lists them. */
size_t bp_soft_kept_count(const bp_world *world);
bp_kept_contact bp_soft_kept(const bp_world *world, size_t k);
/* Keeps these impulses as well (a contact already kept gets the new
 * ones), for the next step to start from. false when memory runs out or
 * an entry is not a contact (an impulse not finite, jn < 0, an id_a not
 * below a ball's code_b, a side past 3): then nothing changes. */
bool bp_soft_keep(bp_world *world, const bp_kept_contact *contacts, size_t count);

#endif
