/* SPDX-License-Identifier: GPL-2.0 */
#ifndef KFT_HIBERNATE_H
#define KFT_HIBERNATE_H

int kft_hibernate_init(void);
void kft_hibernate_exit(void);

#endif
