/* The contacts the debug view and the inspector show (src/app/contacts.c),
 * found afresh from the ball arrays: a hand-laid scene with known touches. */
#include "contacts.h"
#include "tap.h"
#include "world.h"

int main(void)
{
    bp_params p = bp_params_default();
    p.width = 400;
    p.height = 300;
    bp_world *w = bp_world_new(&p);
    /* 0-1-2 in a row on the floor, touching (centres 20 apart, r 10, the
     * floor at y = 300); 3 alone; 4 against the left side; 5 on a wall. */
    const double balls[][3] = {{100, 290, 10}, {120, 290, 10}, {140, 290, 10},
                               {300, 100, 10}, {10, 100, 10},  {200, 50, 5}};
    for (int k = 0; k < 6; k++)
        bp_world_insert_ball(w, balls[k][0], balls[k][1], 0, 0, balls[k][2], 0);
    bp_world_insert_wall(w, (bp_wall){150, 57, 250, 57, 2});
    bp_contacts c = {0};
    TAP_OK(bp_contacts_find(&c, w), "contacts are found");
    TAP_OK(bp_contacts_of(&c, 0) == 2 && bp_contacts_of(&c, 1) == 3,
           "on the floor, the first of a row touches a ball and the floor, the middle two balls");
    TAP_OK(bp_contacts_of(&c, 2) == 2, "the last touches its neighbour and the floor");
    TAP_OK(bp_contacts_of(&c, 3) == 0, "a ball alone touches nothing");
    TAP_OK(bp_contacts_of(&c, 4) == 1, "a ball against the left side touches it");
    TAP_OK(bp_contacts_of(&c, 5) == 1, "a ball resting on a wall touches it");
    TAP_OK(c.count == 7, "seven contacts in all: 0-1, 1-2, three on the floor, side, wall");
    /* The contact point between 0 and 1 lies midway, at (110, 290). */
    bool mid = false;
    for (size_t k = 0; k < c.count; k++)
        mid |= c.list[k].b != BP_CONTACT_STATIC && c.list[k].x > 109.9f &&
               c.list[k].x < 110.1f && c.list[k].y > 289.9f && c.list[k].y < 290.1f;
    TAP_OK(mid, "the contact of two equal balls lies midway between their centres");
    w->x[1] += 1.0;
    TAP_OK(bp_contacts_find(&c, w) && bp_contacts_of(&c, 0) == 1,
           "a gap of 1 px (5% of the radius) is no contact");
    bp_contacts_free(&c);
    bp_world_destroy(w);
    return tap_done();
}
