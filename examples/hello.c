/* hello: the smallest program that embeds libballpit. A ball rolls off a
 * ramp onto the floor beside a second ball; the program prints where both
 * are every half second and exits 0 once they have both come to rest on
 * the floor, 1 if they have not after ten seconds.
 *
 *   cc hello.c $(pkg-config --cflags --libs ballpit) -o hello && ./hello */
#include <stdio.h>

#include <ballpit/ballpit.h>

int main(void)
{
    bp_world_def def = bp_default_world_def();
    def.width = 800.0;
    def.height = 600.0;
    def.friction = 0.5;
    def.restitution = 0.3;
    def.rolling = 0.05;
    bp_world *world = bp_world_create(&def);
    if (!world) {
        fprintf(stderr, "hello: cannot make a world\n");
        return 1;
    }
    /* A ramp from the top left down to the middle of the floor. */
    bp_world_add_wall(world, 50.0, 200.0, 400.0, 500.0, 4.0);

    bp_ball_def ball = bp_default_ball_def();
    ball.x = 80.0;
    ball.y = 160.0;
    ball.radius = 20.0;
    bp_ball_id roller = bp_world_add_ball(world, &ball);
    ball.x = 600.0;
    ball.y = 300.0;
    ball.radius = 30.0;
    bp_ball_id dropped = bp_world_add_ball(world, &ball);

    int steps_per_print = (int)(def.hz / 2.0);
    for (int step = 1; step <= 10 * (int)def.hz; step++) {
        if (!bp_world_step(world)) {
            fprintf(stderr, "hello: out of memory\n");
            bp_world_destroy(world);
            return 1;
        }
        bp_ball_state a = bp_world_get_ball(world, roller);
        bp_ball_state b = bp_world_get_ball(world, dropped);
        if (step % steps_per_print == 0)
            printf("t=%4.1fs roller (%6.1f, %5.1f) spin %7.2f rad/s   dropped (%6.1f, %5.1f)\n",
                   step / def.hz, a.x, a.y, a.w, b.x, b.y);
        if ((a.flags & BP_BALL_ASLEEP) && (b.flags & BP_BALL_ASLEEP)) {
            printf("both at rest after %.2f s: roller at x=%.1f, dropped at x=%.1f\n",
                   step / def.hz, a.x, b.x);
            bp_world_destroy(world);
            return 0;
        }
    }
    printf("still moving after ten seconds\n");
    bp_world_destroy(world);
    return 1;
}
