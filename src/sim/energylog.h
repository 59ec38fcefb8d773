/* DIR/energy.csv, which --dump writes beside frames.csv: the world's
 * energy and momentum a row per dumped frame. */
#ifndef BP_ENERGYLOG_H
#define BP_ENERGYLOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "ballpit/ballpit.h"
#include "rowsfile.h"

/* DIR/energy.csv: frame,t,kinetic,rotational,potential,total,px,py, a row
 * per dumped step, numbers that round-trip. */
typedef struct bp_energy_log {
    bp_rows_file csv;
} bp_energy_log;

/* dir must exist. false with a message in err. */
bool bp_energy_log_open(bp_energy_log *log, const char *dir, char *err, size_t err_size);
bool bp_energy_log_frame(bp_energy_log *log, const bp_world *world, unsigned long long frame,
                         char *err, size_t err_size);
/* false when something written was lost. */
bool bp_energy_log_close(bp_energy_log *log, char *err, size_t err_size);

#endif
