/* Which balls touch what, found afresh from the world's arrays (read
 * only) for the debug view and the inspector: the solver keeps its own
 * contacts private. */
#ifndef BP_CONTACTS_H
#define BP_CONTACTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ballpit/ballpit.h"

/* b of a contact with a wall or a side of the arena. */
#define BP_CONTACT_STATIC UINT32_MAX

typedef struct bp_contact {
    uint32_t a, b; /* ball indices; b may be BP_CONTACT_STATIC */
    float x, y;    /* the contact point, px */
} bp_contact;

typedef struct bp_contacts {
    bp_contact *list;
    size_t count, capacity;
    double cell;       /* grid cell edge, px: 2 x the largest radius */
    int cols, rows;
    uint32_t *start;   /* cols * rows + 1 offsets into items */
    uint32_t *items;   /* ball indices by cell */
    size_t start_capacity, items_capacity;
} bp_contacts;

/* Two shapes touch when the gap between them is under this share of the
 * smaller radius: resting balls sit a hair apart or a hair into each other. */
#define BP_CONTACT_SLOP 0.02

/* Finds every contact of the world. false when memory runs out. */
bool bp_contacts_find(bp_contacts *c, const bp_world *world);
/* How many of the contacts found involve ball index i. */
size_t bp_contacts_of(const bp_contacts *c, size_t i);
void bp_contacts_free(bp_contacts *c);

#endif
