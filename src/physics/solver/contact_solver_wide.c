/* The soft solver's sweep a block of contacts at a time, one contact per
 * SIMD lane (AVX: four doubles), where the CPU has AVX; elsewhere
 * bp_soft_sweeps takes the scalar sweep. Each lane does the scalar sweep's
 * operations in the same order (no fused multiply-add: the build turns
 * contraction off), and min and max keep the scalar a < b ? a : b, so both
 * give the same bits: a run, its replay and its dump do not depend on the
 * machine. The contacts of a block share no ball (colour.c), so the lanes
 * read and write distinct bodies; an empty lane and every side and wall
 * read the still body; on threads that share the sweep they write their
 * lanes into a sink of their own instead (it would stay 0 whatever they
 * added), so that no two threads write one body. */
#include "soft_internal.h"

#include "solver.h"

/* Set by bp_soft_use_lanes(false): tests compare the scalar sweep's bits
 * with the lanes'. */
static bool scalar_only = false;

void bp_soft_use_lanes(bool on)
{
    scalar_only = !on;
}

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define BP_WIDE_AVX 1
#include <immintrin.h>
#endif

#ifdef BP_WIDE_AVX

#define WIDE __attribute__((target("avx")))

typedef __m256d lanes;

/* A body's first four doubles (vx, vy, w, dx) and last four (dy, im, ii,
 * r) for each lane, turned into one register per field. */
typedef struct wide_bodies {
    lanes vx, vy, w, dx, dy, im, ii, r;
} wide_bodies;

/* Rows r0..r3 (one per lane) into columns c0..c3 (one per field), and
 * back: a 4x4 transpose is its own inverse. */
WIDE static inline void transpose(lanes *r0, lanes *r1, lanes *r2, lanes *r3)
{
    lanes t0 = _mm256_unpacklo_pd(*r0, *r1), t1 = _mm256_unpackhi_pd(*r0, *r1);
    lanes t2 = _mm256_unpacklo_pd(*r2, *r3), t3 = _mm256_unpackhi_pd(*r2, *r3);
    *r0 = _mm256_permute2f128_pd(t0, t2, 0x20);
    *r1 = _mm256_permute2f128_pd(t1, t3, 0x20);
    *r2 = _mm256_permute2f128_pd(t0, t2, 0x31);
    *r3 = _mm256_permute2f128_pd(t1, t3, 0x31);
}

WIDE static inline wide_bodies load_bodies(const soft_body *bodies, const uint32_t *idx)
{
    const double *p0 = &bodies[idx[0]].vx, *p1 = &bodies[idx[1]].vx;
    const double *p2 = &bodies[idx[2]].vx, *p3 = &bodies[idx[3]].vx;
    lanes r0 = _mm256_loadu_pd(p0), r1 = _mm256_loadu_pd(p1);
    lanes r2 = _mm256_loadu_pd(p2), r3 = _mm256_loadu_pd(p3);
    transpose(&r0, &r1, &r2, &r3);
    lanes h0 = _mm256_loadu_pd(p0 + 4), h1 = _mm256_loadu_pd(p1 + 4);
    lanes h2 = _mm256_loadu_pd(p2 + 4), h3 = _mm256_loadu_pd(p3 + 4);
    transpose(&h0, &h1, &h2, &h3);
    return (wide_bodies){r0, r1, r2, r3, h0, h1, h2, h3};
}

/* Where a lane stores its body (index idx): shared with other threads,
 * the still body's lanes (index still) into sink, which no one reads; else
 * where it is (no thread writes it but this one, and it stays 0). */
#define INLINE static inline __attribute__((always_inline))
INLINE double *store_at(soft_body *bodies, uint32_t idx, const bool shared, uint32_t still,
                        soft_body *sink)
{
    return !shared || idx != still ? &bodies[idx].vx : &sink->vx;
}

/* The velocities and spins back (dx goes back unchanged). */
WIDE INLINE void store_bodies(soft_body *bodies, const uint32_t *idx, const bool shared,
                              uint32_t still, soft_body *sink, const wide_bodies *w)
{
    lanes r0 = w->vx, r1 = w->vy, r2 = w->w, r3 = w->dx;
    transpose(&r0, &r1, &r2, &r3);
    _mm256_storeu_pd(store_at(bodies, idx[0], shared, still, sink), r0);
    _mm256_storeu_pd(store_at(bodies, idx[1], shared, still, sink), r1);
    _mm256_storeu_pd(store_at(bodies, idx[2], shared, still, sink), r2);
    _mm256_storeu_pd(store_at(bodies, idx[3], shared, still, sink), r3);
}

/* The scalar apply: b takes impulses (pn, pt, pr) at the contact, a their
 * opposite, operation for operation. */
WIDE static inline void apply(wide_bodies *a, wide_bodies *b, lanes nx, lanes ny, lanes pn,
                              lanes pt, lanes pr)
{
    lanes px = _mm256_sub_pd(_mm256_mul_pd(pn, nx), _mm256_mul_pd(pt, ny));
    lanes py = _mm256_add_pd(_mm256_mul_pd(pn, ny), _mm256_mul_pd(pt, nx));
    a->vx = _mm256_sub_pd(a->vx, _mm256_mul_pd(px, a->im));
    a->vy = _mm256_sub_pd(a->vy, _mm256_mul_pd(py, a->im));
    a->w = _mm256_sub_pd(a->w, _mm256_mul_pd(_mm256_add_pd(_mm256_mul_pd(pt, a->r), pr), a->ii));
    b->vx = _mm256_add_pd(b->vx, _mm256_mul_pd(px, b->im));
    b->vy = _mm256_add_pd(b->vy, _mm256_mul_pd(py, b->im));
    b->w = _mm256_add_pd(b->w, _mm256_mul_pd(_mm256_sub_pd(pr, _mm256_mul_pd(pt, b->r)), b->ii));
}

/* x < y ? x : y and x > y ? x : y, as bp_min and bp_max (MINPD and MAXPD
 * return their second operand unless the first is strictly less/greater). */
WIDE static inline lanes lanes_min(lanes x, lanes y)
{
    return _mm256_min_pd(x, y);
}

WIDE static inline lanes lanes_max(lanes x, lanes y)
{
    return _mm256_max_pd(x, y);
}

/* The gap, bias and softness of each lane (sweep_lane's first lines). */
WIDE static inline void push_of(const contact_block *q, const wide_bodies *a,
                                const wide_bodies *b, const sweep_law *law, lanes nx, lanes ny,
                                lanes *bias, lanes *mass_scale, lanes *impulse_scale)
{
    lanes dx = _mm256_sub_pd(b->dx, a->dx), dy = _mm256_sub_pd(b->dy, a->dy);
    lanes s = _mm256_add_pd(_mm256_add_pd(_mm256_loadu_pd(q->s0), _mm256_mul_pd(dx, nx)),
                            _mm256_mul_pd(dy, ny));
    lanes zero = _mm256_setzero_pd(), one = _mm256_set1_pd(1.0);
    lanes open = _mm256_cmp_pd(s, zero, _CMP_GT_OQ);
    lanes speculative = _mm256_mul_pd(s, _mm256_set1_pd(law->inv_h));
    lanes pushed = zero, ms = one, is = zero;
    if (law->push) {
        lanes stiff = _mm256_cmp_pd(_mm256_loadu_pd(q->stiff), zero, _CMP_GT_OQ);
        lanes rate = _mm256_blendv_pd(_mm256_set1_pd(law->bias_rate),
                                      _mm256_set1_pd(law->stiff_bias_rate), stiff);
        pushed = lanes_max(_mm256_mul_pd(rate, s), _mm256_set1_pd(-law->max_push));
        ms = _mm256_blendv_pd(_mm256_set1_pd(law->mass_scale),
                              _mm256_set1_pd(law->stiff_mass_scale), stiff);
        is = _mm256_blendv_pd(_mm256_set1_pd(law->impulse_scale),
                              _mm256_set1_pd(law->stiff_impulse_scale), stiff);
    }
    *bias = _mm256_blendv_pd(pushed, speculative, open);
    *mass_scale = _mm256_blendv_pd(ms, one, open);
    *impulse_scale = _mm256_blendv_pd(is, zero, open);
}

/* Rolling resistance of each lane (sweep_lane's last lines); lanes with
 * no rolling mass keep their impulse and bodies as they were. */
WIDE static inline void roll(contact_block *q, wide_bodies *a, wide_bodies *b,
                             const sweep_law *law, lanes nx, lanes ny, lanes jn)
{
    lanes zero = _mm256_setzero_pd(), kr = _mm256_loadu_pd(q->kr);
    lanes rolls = _mm256_cmp_pd(kr, zero, _CMP_GT_OQ);
    lanes spin = _mm256_sub_pd(a->w, b->w);
    lanes rlimit = _mm256_mul_pd(_mm256_mul_pd(_mm256_set1_pd(law->rolling), jn),
                                 _mm256_loadu_pd(q->roll_r));
    lanes jr0 = _mm256_loadu_pd(q->jr);
    lanes jr = lanes_min(lanes_max(_mm256_add_pd(jr0, _mm256_mul_pd(spin, kr)),
                                   _mm256_xor_pd(rlimit, _mm256_set1_pd(-0.0))),
                         rlimit);
    _mm256_storeu_pd(q->jr, _mm256_blendv_pd(jr0, jr, rolls));
    wide_bodies a0 = *a, b0 = *b;
    apply(a, b, nx, ny, zero, zero, _mm256_sub_pd(jr, jr0));
    a->vx = _mm256_blendv_pd(a0.vx, a->vx, rolls);
    a->vy = _mm256_blendv_pd(a0.vy, a->vy, rolls);
    a->w = _mm256_blendv_pd(a0.w, a->w, rolls);
    b->vx = _mm256_blendv_pd(b0.vx, b->vx, rolls);
    b->vy = _mm256_blendv_pd(b0.vy, b->vy, rolls);
    b->w = _mm256_blendv_pd(b0.w, b->w, rolls);
}

/* One block's four contacts swept once: sweep_lane in every lane. */
WIDE INLINE void sweep_block(soft_body *bodies, contact_block *q, const bool shared,
                             uint32_t still, soft_body *sink, const sweep_law *law)
{
    wide_bodies a = load_bodies(bodies, q->a), b = load_bodies(bodies, q->b);
    lanes nx = _mm256_loadu_pd(q->nx), ny = _mm256_loadu_pd(q->ny);
    lanes bias, mass_scale, impulse_scale;
    push_of(q, &a, &b, law, nx, ny, &bias, &mass_scale, &impulse_scale);
    lanes zero = _mm256_setzero_pd();
    lanes dvx = _mm256_sub_pd(b.vx, a.vx), dvy = _mm256_sub_pd(b.vy, a.vy);
    lanes vn = _mm256_add_pd(_mm256_mul_pd(dvx, nx), _mm256_mul_pd(dvy, ny));
    lanes jn0 = _mm256_loadu_pd(q->jn);
    lanes push = _mm256_mul_pd(_mm256_mul_pd(_mm256_loadu_pd(q->kn), mass_scale),
                               _mm256_add_pd(vn, bias));
    lanes jn = lanes_max(
        _mm256_sub_pd(_mm256_sub_pd(jn0, push), _mm256_mul_pd(impulse_scale, jn0)), zero);
    _mm256_storeu_pd(q->jn, jn);
    _mm256_storeu_pd(q->jn_max, lanes_max(_mm256_loadu_pd(q->jn_max), jn));
    /* Friction on the contact points' relative speed, spin included. */
    lanes ndvx = _mm256_xor_pd(dvx, _mm256_set1_pd(-0.0)); /* -dvx: the sign flipped */
    lanes vt = _mm256_sub_pd(
        _mm256_sub_pd(_mm256_add_pd(_mm256_mul_pd(ndvx, ny), _mm256_mul_pd(dvy, nx)),
                      _mm256_mul_pd(b.w, b.r)),
        _mm256_mul_pd(a.w, a.r));
    lanes limit = _mm256_mul_pd(_mm256_set1_pd(law->friction), jn);
    lanes jt0 = _mm256_loadu_pd(q->jt);
    lanes jt = lanes_min(lanes_max(_mm256_sub_pd(jt0, _mm256_mul_pd(vt, _mm256_loadu_pd(q->kt))),
                                   _mm256_xor_pd(limit, _mm256_set1_pd(-0.0))),
                         limit);
    _mm256_storeu_pd(q->jt, jt);
    apply(&a, &b, nx, ny, _mm256_sub_pd(jn, jn0), _mm256_sub_pd(jt, jt0), zero);
    if (law->rolling > 0.0)
        roll(q, &a, &b, law, nx, ny, jn);
    store_bodies(bodies, q->a, shared, still, sink, &a);
    store_bodies(bodies, q->b, shared, still, sink, &b);
}

/* Whether this CPU runs AVX, unless the lanes are turned off. */
bool bp_soft_wide_available(void)
{
    return !scalar_only && __builtin_cpu_supports("avx");
}

/* Block q given its impulses again (the warm start). */
WIDE INLINE void warm_block(soft_body *bodies, const contact_block *q, const bool shared,
                            uint32_t still, soft_body *sink)
{
    wide_bodies a = load_bodies(bodies, q->a), b = load_bodies(bodies, q->b);
    apply(&a, &b, _mm256_loadu_pd(q->nx), _mm256_loadu_pd(q->ny), _mm256_loadu_pd(q->jn),
          _mm256_loadu_pd(q->jt), _mm256_loadu_pd(q->jr));
    store_bodies(bodies, q->a, shared, still, sink, &a);
    store_bodies(bodies, q->b, shared, still, sink, &b);
}

WIDE void bp_soft_sweep_wide(bp_soft *soft, size_t lo, size_t hi, const sweep_law *law,
                             bool shared)
{
    soft_body sink; /* this thread's */
    if (shared)
        for (size_t i = lo; i < hi; i++)
            sweep_block(soft->bodies, &soft->blocks[i], true, soft->still, &sink, law);
    else
        for (size_t i = lo; i < hi; i++)
            sweep_block(soft->bodies, &soft->blocks[i], false, soft->still, &sink, law);
}

WIDE void bp_soft_warm_start_wide(bp_soft *soft, size_t lo, size_t hi, bool shared)
{
    soft_body sink; /* this thread's */
    if (shared)
        for (size_t i = lo; i < hi; i++)
            warm_block(soft->bodies, &soft->blocks[i], true, soft->still, &sink);
    else
        for (size_t i = lo; i < hi; i++)
            warm_block(soft->bodies, &soft->blocks[i], false, soft->still, &sink);
}

#else

bool bp_soft_wide_available(void)
{
    (void)scalar_only;
    return false;
}

void bp_soft_sweep_wide(bp_soft *soft, size_t lo, size_t hi, const sweep_law *law, bool shared)
{
    (void)soft;
    (void)lo;
    (void)hi;
    (void)law;
    (void)shared;
}

void bp_soft_warm_start_wide(bp_soft *soft, size_t lo, size_t hi, bool shared)
{
    (void)soft;
    (void)lo;
    (void)hi;
    (void)shared;
}

#endif
