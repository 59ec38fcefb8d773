/* Elementary functions that give the same bits on every platform.
 *
 * The step must give the same result wherever it runs: natively with
 * glibc, and in the browser with emscripten's libc. sqrt, floor, fabs and
 * remainder are exact by the IEEE standard, so any libm agrees on them;
 * exp is not, and two libraries may differ in its last bit. bp_exp is
 * written with + - * / alone (and -ffp-contract=off), so it rounds the
 * same way on any IEEE machine. */
#ifndef BP_DETMATH_H
#define BP_DETMATH_H

/* e^x, correctly rounded but for inputs within about 2^-100 (relative) of
 * a halfway point between two doubles, which no test has met. Subnormal
 * results are rounded twice. NaN gives NaN; overflow +inf, underflow 0. */
double bp_exp(double x);

#endif
