/* SPDX-License-Identifier: GPL-2.0 */
/* A ring run frozen and printed at an oops or a panic (kft_flight.c). */
#ifndef KFT_FLIGHT_H
#define KFT_FLIGHT_H

int kft_flight_init(void);
void kft_flight_exit(void);

#endif
