// SPDX-License-Identifier: GPL-2.0
/* kft's own work under way, per CPU and context level (kft_own.h). */
#include "kft_own.h"

DEFINE_PER_CPU(u8 [4], kft_own_working);
