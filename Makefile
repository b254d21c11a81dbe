# SPDX-License-Identifier: GPL-2.0
# kft: top-level build. The targets (make help prints these lines):
#   make                 the userspace tools, and kft.ko for KDIR if its headers are there
#   make module          kft.ko for KDIR (default: the running kernel's headers)
#   make userspace       build/bin/{addr2sym,sym2addr,kd,kft}
#   make install         the tools and man pages (PREFIX, DESTDIR)
#   make demo            boot Debian's 6.12 in QEMU, trace one open(), analyze the log
#   make boot            build a 6.12 kernel with kft built in, trace its boot
#                        (ARCH=arm64, ARCH=armhf: an arm64 or 32-bit ARM kernel, on QEMU's virt board;
#                        KERNEL=5.10: Debian 11's 5.10, x86-64 or arm64, BOOT_ARGS=kft.static_funcs=F1,F2)
#   make check           unit tests, tools, fuzzers, lint, dkms, deb, VM tests on 5.10, 6.1, 6.12, 6.12-rt, 7.3, 6.12-debug, the boot kernels (6.12, 5.10)
#   make check-quick     the inner loop (about 5 min): unit tests, tools, lint, 6.12's quicker VM tests
#   make check-debug     every in-guest test on the debug kernel (6.12, KASAN, lockdep, kmemleak), make check's and those it leaves out there
#   make census          each in-guest test 5 times on 6.1, 6.12 and 6.12-debug: failures out of runs
#   make unit            the userspace unit tests (ASan, UBSan)
#   make lint            sparse, checkpatch, -Werror builds
#   make fuzz            each fuzzer for FUZZ_SECONDS (default 60)
#   make dkms-check      kft-dkms built by dkms for the cached Debian kernels 5.10, 6.1 and 6.12
#   make deb             build/deb/kft-dkms_VERSION_all.deb and kft-tools_VERSION_amd64.deb
#   make deb-check       make deb, lintian, install, use and remove the packages
#   make bench           overhead per traced call, kft vs ftrace and kprobes
#   make bench-arm64     the same on arm64's two kernels (no bpftrace there)
#   make bench-riscv64   the same on riscv64 (fast hooks only there)
#   make bench-armhf     the same on 32-bit ARM (kretprobes only there)
#   make bench-rt        cyclictest's latencies on PREEMPT_RT with kft and with function_graph
#   make bench-kd        kd's speed and memory on a 1M-row log
#   make check-mttcg     the concurrency tests with one host thread per vCPU (not a gate)
#   make check-arch      kft on arm64 (6.12, 6.12-rt, 7.3, 5.10), 32-bit ARM (armhf: 6.1, 5.10) and riscv64: cross-built, tools under qemu-user, the in-guest tests in QEMU's virt board
#   make check-arm64     make check-arch on arm64 only
#   make clean           remove build/ and the module's objects
#   make help            this list
# Packages: each target that needs some runs scripts/deps (as root it
# installs them; otherwise it prints the apt-get line); make, make
# userspace and make install only check (scripts/deps -c build).
KVER ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KVER)/build
PREFIX ?= /usr/local
BUILD := $(CURDIR)/build

CC ?= cc
WARN := -Wall -Wextra -Werror
# Every userspace program: 64-bit file offsets where off_t is 32 bits
# (armhf), so that a log or a record file may pass 2 GiB there
# (userspace/lib/kftrec.c checks that off_t is 64 bits). Not in CFLAGS or
# CPPFLAGS: a build that sets those (scripts/deb) keeps it.
LFS := -D_FILE_OFFSET_BITS=64
CFLAGS ?= -O2 -g
# float-cast-overflow: a double out of an integer's range converted (UB),
# which gcc's -fsanitize=undefined leaves out and clang's has.
SAN := -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer -fno-sanitize-recover=all

GUEST_HELPERS := $(BUILD)/guest/kftio $(BUILD)/guest/elapsed $(BUILD)/guest/forkwrite $(BUILD)/guest/recseq $(BUILD)/guest/threxec \
	$(BUILD)/guest/addr2sym $(BUILD)/guest/kd \
	$(BUILD)/guest/kft

.PHONY: all boot bench bench-arm64 bench-armhf bench-riscv64 bench-rt bench-kd module userspace tools-san guest-helpers unit unit-build lint check demo clean install layers-userspace \
	fuzz fuzz-build fuzz-list help deps-build module-skipped dkms-check deb deb-check check-mttcg \
	check-arch check-arm64 check-quick check-debug census

all: userspace

# make without the kernel's headers (a container, a machine that only
# analyzes logs): the tools, and one line on how to get the module. An
# explicit KDIR, and make module, fail loudly instead.
ifneq ($(origin KDIR),file)
all: module
else ifneq ($(wildcard $(KDIR)/Makefile),)
all: module
else
all: module-skipped
endif

# The header's lines of targets, and the lines that continue one (blank
# where the target's name stands).
help:
	@sed -n '2,/^# Packages:/{s/^#   make/make/p; s/^#   \(     \)/\1/p}' $(firstword $(MAKEFILE_LIST))

ifeq ($(origin KDIR),file)
NO_HEADERS = no kernel headers in $(KDIR): apt-get install linux-headers-$(KVER), or make KDIR=/path/to/kernel/build
else
NO_HEADERS = no kernel build tree in KDIR=$(KDIR) (no Makefile there)
endif

module-skipped: userspace
	@echo "kft: kft.ko not built: $(NO_HEADERS)"

module: deps-build
	@test -f $(KDIR)/Makefile || { echo "kft: cannot build kft.ko: $(NO_HEADERS)" >&2; exit 1; }
	$(MAKE) -C $(KDIR) M=$(CURDIR)/module modules

# The compiler and libc's headers: said, not installed, by a plain make.
deps-build:
	@scripts/deps -c build

# The userspace tools: addr2sym, sym2addr, kd, and the kft command.
LIB_SRC := $(wildcard userspace/lib/*.c)
KD_SRC := $(wildcard userspace/kd/*.c)
KFT_SRC := $(wildcard userspace/kft/*.c)
TOOLS := $(BUILD)/bin/addr2sym $(BUILD)/bin/sym2addr $(BUILD)/bin/kd $(BUILD)/bin/kft
# The one version of the module and the tools: VERSION (module/Kbuild
# reads it too); userspace/lib/version.h.
KFT_VERSION := $(shell cat $(CURDIR)/VERSION)
VERSION_DEF := -DKFT_VERSION='"$(KFT_VERSION)"'
# -Imodule: the kft command takes the language's limits from kft_config.h.
TOOL_CFLAGS = $(CPPFLAGS) $(CFLAGS) $(WARN) $(LFS) $(VERSION_DEF) -Iuserspace -Iuserspace/lib \
	-Iuserspace/kd -Iuserspace/types -Imodule
# Each tool's own sources (with LIB_SRC).
SRC_addr2sym := userspace/addr2sym.c
SRC_sym2addr := userspace/sym2addr.c
# The --srcline of kd and of the kft commands that print calls reads
# DWARF through elfutils' libdw (userspace/srcline), linked where the
# compiler finds it: the host's tools (scripts/deps' build group has
# libdw-dev). Cross builds get nolibdw.c, which refuses the option with
# the reason. LIBDW=yes or LIBDW=no decides instead.
ifeq ($(origin LIBDW),undefined)
LIBDW := $(shell echo 'int main(void) { return !dwfl_version(0); }' | \
	$(CC) -include elfutils/libdwfl.h -x c -o /dev/null - -ldw -lelf 2>/dev/null && echo yes)
endif
# The types of calls' arguments (userspace/types, Documentation/types.rst),
# for kd --types and kft trace -T: BTF through libbpf, DWARF through libdw,
# each linked where the compiler finds it (LIBBPF=yes or no decides
# instead); a build without one has its stub (nobtf.c, nodwarf.c), which
# refuses that source with the reason. Written prototypes need neither.
ifeq ($(origin LIBBPF),undefined)
LIBBPF := $(shell echo 'int main(void) { return !libbpf_major_version(); }' | \
	$(CC) -include bpf/libbpf.h -x c -o /dev/null - -lbpf 2>/dev/null && echo yes)
endif
# libdwfl's offline module, shared by srcline and the types' DWARF.
DWFL_SRC := userspace/dwfl/offline.c
# --srcline's option and text, the same with libdw or without.
SRCLINE_COMMON := userspace/srcline/files.c userspace/srcline/text.c
SRCLINE_NONE := userspace/srcline/nolibdw.c $(SRCLINE_COMMON)
TYPES_CORE := $(filter-out %/kftbtf.c %/kftdwarf.c %/nobtf.c %/nodwarf.c, \
	$(wildcard userspace/types/*.c))
TYPES_BTF := userspace/types/kftbtf.c
TYPES_DWARF := userspace/types/kftdwarf.c $(DWFL_SRC)
TYPES_NONE := userspace/types/nobtf.c userspace/types/nodwarf.c
# Every source of the types, for the unit test (which needs both libraries).
TYPES_SRC := $(TYPES_CORE) $(TYPES_BTF) $(TYPES_DWARF)
TYPES_LIBS := -lbpf -ldw -lelf
ifeq ($(LIBDW),yes)
SRCLINE_SRC := userspace/srcline/srcline.c userspace/srcline/frames.c $(SRCLINE_COMMON)
TOOL_TYPES_DWARF := $(TYPES_DWARF)
LIBS_DW := -ldw -lelf
else
SRCLINE_SRC := $(SRCLINE_NONE)
TOOL_TYPES_DWARF := userspace/types/nodwarf.c
endif
ifeq ($(LIBBPF),yes)
TOOL_TYPES_BTF := $(TYPES_BTF)
LIBS_BPF := -lbpf
else
TOOL_TYPES_BTF := userspace/types/nobtf.c
endif
# The types as kd and kft link them (the DWARF part once, with srcline's).
TOOL_TYPES := $(TYPES_CORE) $(TOOL_TYPES_BTF) $(filter-out $(DWFL_SRC),$(TOOL_TYPES_DWARF))
TOOL_DWFL := $(if $(filter yes,$(LIBDW)),$(DWFL_SRC))
LIBS_kd := $(LIBS_BPF) $(LIBS_DW)
LIBS_kft := $(LIBS_BPF) $(LIBS_DW)
SRC_kd := $(KD_SRC) $(SRCLINE_SRC) $(TOOL_DWFL) $(TOOL_TYPES)
# The guests' static kd and kft: libbpf, libdw and what they need
# (libelf, zlib, xz, bzip2) linked statically where the compiler finds
# their static libraries (Debian's -dev packages have them: the host's
# x86-64 guests; arm64's and armhf's are unpacked under GUEST_TYPES_ROOT
# by scripts/kernels/fetch --typelibs), so that a guest's kd reads that
# guest's BTF; without them the stubs. GUEST_TYPES=yes or no decides instead.
GUEST_TYPES_FLAGS := $(if $(GUEST_TYPES_ROOT),-I$(GUEST_TYPES_ROOT)/usr/include \
	-L$(GUEST_TYPES_ROOT)/usr/lib/$(shell $(CC) -dumpmachine))
GUEST_TYPES_LIBS := -lbpf -ldw -lelf -lz -llzma -lbz2 -lpthread
ifeq ($(origin GUEST_TYPES),undefined)
GUEST_TYPES := $(shell echo 'int main(void) { return !dwfl_version(0) || !btf__new_empty(); }' | \
	$(CC) -static $(GUEST_TYPES_FLAGS) -include elfutils/libdwfl.h -include bpf/btf.h -x c \
	-o /dev/null - $(GUEST_TYPES_LIBS) 2>/dev/null && echo yes)
endif
ifeq ($(GUEST_TYPES),yes)
GUEST_TYPES_SRC := $(TYPES_SRC)
GUEST_CFLAGS := $(GUEST_TYPES_FLAGS)
# -w: the linker's one warning there, glibc's that a static program's
# dlopen needs the same glibc at run time, is of libdw's lookup of
# libdebuginfod, which kft never makes (it reads no separate debug file).
GUEST_LIBS := -Wl,-w $(GUEST_TYPES_LIBS)
else
GUEST_TYPES_SRC := $(TYPES_CORE) $(TYPES_NONE)
endif
GUEST_SRC_kd = $(KD_SRC) $(SRCLINE_NONE) $(GUEST_TYPES_SRC)
GUEST_SRC_addr2sym = $(SRC_addr2sym)
GUEST_SRC_kft = $(KFT_SRC) module/kft_config.c $(SRCLINE_NONE) $(GUEST_TYPES_SRC)
# kft trace parses a configuration with the module's parser (expand.c).
SRC_kft := $(KFT_SRC) module/kft_config.c $(SRCLINE_SRC) $(TOOL_DWFL) $(TOOL_TYPES)
# The same without libbpf and libdw, for the unit tests and fuzzers (and
# cross builds of them): the stubs of srcline and of the types.
KFT_NOLIBS := $(KFT_SRC) module/kft_config.c $(SRCLINE_NONE) $(TYPES_CORE) $(TYPES_NONE)
KD_NOLIBS := $(KD_SRC) $(SRCLINE_NONE) $(TYPES_CORE) $(TYPES_NONE)

userspace: deps-build $(TOOLS)

$(BUILD)/bin/addr2sym: userspace/addr2sym.c userspace/addr2sym.h $(LIB_SRC) $(wildcard userspace/lib/*.h) VERSION
	@mkdir -p $(dir $@)
	$(CC) $(TOOL_CFLAGS) $(LDFLAGS) -o $@ userspace/addr2sym.c $(LIB_SRC)

$(BUILD)/bin/sym2addr: userspace/sym2addr.c $(LIB_SRC) $(wildcard userspace/lib/*.h) VERSION
	@mkdir -p $(dir $@)
	$(CC) $(TOOL_CFLAGS) $(LDFLAGS) -o $@ userspace/sym2addr.c $(LIB_SRC)

$(BUILD)/bin/kd: $(SRC_kd) userspace/kd/kd.h $(LIB_SRC) $(wildcard userspace/lib/*.h) \
		$(wildcard userspace/srcline/*.h userspace/types/*.h userspace/dwfl/*.h) VERSION
	@mkdir -p $(dir $@)
	$(CC) $(TOOL_CFLAGS) $(LDFLAGS) -o $@ $(SRC_kd) $(LIB_SRC) $(LIBS_kd)

$(BUILD)/bin/kft: $(SRC_kft) userspace/kft/kft.h module/kft_config.h $(LIB_SRC) $(wildcard userspace/lib/*.h) \
		$(wildcard userspace/srcline/*.h userspace/types/*.h userspace/dwfl/*.h) VERSION
	@mkdir -p $(dir $@)
	$(CC) $(TOOL_CFLAGS) $(LDFLAGS) -o $@ $(SRC_kft) $(LIB_SRC) -lm $(LIBS_kft)

# The same tools with ASan and UBSan, for tests/tools/run.
SAN_TOOLS := $(BUILD)/san/addr2sym $(BUILD)/san/sym2addr $(BUILD)/san/kd $(BUILD)/san/kft
tools-san: $(SAN_TOOLS)

# Each source compiled once for the four (-MMD: with its headers).
SAN_OBJ := $(BUILD)/san/obj
san_objs = $(patsubst %.c,$(SAN_OBJ)/%.o,$(1))
$(SAN_OBJ)/%.o: %.c VERSION
	@mkdir -p $(dir $@)
	$(CC) $(TOOL_CFLAGS) $(SAN) -MMD -MP -c -o $@ $<
-include $(shell find $(SAN_OBJ) -name '*.d' 2>/dev/null)

.SECONDEXPANSION:
$(SAN_TOOLS): $(BUILD)/san/%: $(BUILD)/bin/% $$(call san_objs,$$(SRC_$$*) $(LIB_SRC))
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -o $@ $(call san_objs,$(SRC_$*) $(LIB_SRC)) -lm $(LIBS_$*)

# No two files of one program need each other (scripts/layers; make lint).
# (unit_objs is defined further down: expanded the second time.)
layers-userspace: $(SAN_TOOLS) $$(call unit_objs,$(TYPES_SRC) $(LIB_SRC))
	@scripts/layers addr2sym $(call san_objs,$(SRC_addr2sym) $(LIB_SRC))
	@scripts/layers sym2addr $(call san_objs,$(SRC_sym2addr) $(LIB_SRC))
	@scripts/layers kd $(call san_objs,$(SRC_kd) $(LIB_SRC))
	@scripts/layers kft $(call san_objs,$(SRC_kft) $(LIB_SRC))
	@scripts/layers types $(call unit_objs,$(TYPES_SRC) $(LIB_SRC))

install: deps-build $(TOOLS)
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0755 $(TOOLS) $(DESTDIR)$(PREFIX)/bin/
	install -m 0644 Documentation/man/*.1 $(DESTDIR)$(PREFIX)/share/man/man1/

# Programs run inside the test VM: static, so the initramfs needs no libc.
guest-helpers: $(GUEST_HELPERS)

$(BUILD)/guest/%: tests/helpers/%.c
	@mkdir -p $(dir $@)
	$(CC) -static -O2 $(WARN) $(LFS) -o $@ $<

# The analyzers and the kft command in the guest too: the log goes
# through them where it is made.
# A stamp per GUEST_TYPES value: kd and kft are linked again when it changes
# (the static libraries came, or went).
GUEST_TYPES_STAMP := $(BUILD)/guest/.types-$(or $(GUEST_TYPES),no)
$(GUEST_TYPES_STAMP):
	@mkdir -p $(dir $@)
	@rm -f $(BUILD)/guest/.types-*
	@touch $@
$(BUILD)/guest/kd $(BUILD)/guest/kft: $(GUEST_TYPES_STAMP)
$(BUILD)/guest/addr2sym $(BUILD)/guest/kd $(BUILD)/guest/kft: $(BUILD)/guest/%: $(BUILD)/bin/%
	@mkdir -p $(dir $@)
	$(CC) -static $(TOOL_CFLAGS) $(GUEST_CFLAGS) -o $@ $(GUEST_SRC_$*) $(LIB_SRC) -lm \
		$(if $(filter-out addr2sym,$*),$(GUEST_LIBS))

# Unit tests: each tests/unit/test_X.c is a program, linked with the
# framework and the userspace sources it tests, built with sanitizers.
# UNIT_SKIP: tests left out (scripts/unit's cross builds: types, whose
# libraries are the host's only).
UNIT_SKIP ?=
UNIT_TESTS := $(filter-out $(patsubst %,$(BUILD)/unit/test_%,$(UNIT_SKIP)), \
	$(patsubst tests/unit/%.c,$(BUILD)/unit/%,$(wildcard tests/unit/test_*.c)))
UNIT_LIB := tests/unit/unit.c

UNIT_DEPS_config := module/kft_config.c
UNIT_DEPS_ksyms := $(LIB_SRC) userspace/addr2sym.c
# The tests of kd's views run it on a log's text (kdrun.c).
KD_RUN := $(LIB_SRC) $(KD_NOLIBS) tests/unit/kdrun.c
UNIT_DEPS_kd := $(KD_RUN)
UNIT_DEPS_snapshot := $(KD_RUN)
UNIT_DEPS_wake := $(KD_RUN)
UNIT_DEPS_stacks := $(LIB_SRC) $(KD_NOLIBS)
UNIT_DEPS_flame := $(LIB_SRC) $(KD_NOLIBS)
UNIT_DEPS_stream := $(LIB_SRC)
UNIT_DEPS_hash := $(LIB_SRC)
UNIT_DEPS_opterr := $(LIB_SRC)
UNIT_DEPS_kftrec := $(LIB_SRC)
# The tests of the kft command's options parse lines (kftargs.c).
KFT_ARGS := $(LIB_SRC) $(KFT_NOLIBS) tests/unit/kftargs.c
UNIT_DEPS_kft := $(KFT_ARGS)
UNIT_DEPS_kft_stacks := $(LIB_SRC) $(KFT_NOLIBS)
UNIT_DEPS_kft_expand := $(LIB_SRC) $(KFT_NOLIBS)
UNIT_DEPS_kft_record := $(KFT_ARGS)
UNIT_DEPS_retval := $(KD_RUN)
UNIT_DEPS_args := $(KD_RUN)
UNIT_DEPS_kd_offcpu := $(KD_RUN)
UNIT_DEPS_console := $(KD_RUN)
UNIT_DEPS_slowtree := $(LIB_SRC) $(KFT_NOLIBS)
UNIT_DEPS_types := $(LIB_SRC) $(TYPES_SRC)
UNIT_LIBS_types := $(TYPES_LIBS)
UNIT_DEPS_typedlog := $(LIB_SRC) $(TYPES_CORE) $(TYPES_NONE)

unit-build: $(UNIT_TESTS)

# Each source compiled once for all the unit tests (the library went into
# nine of them: unit-build took 46 s, 17 s now), with the
# headers it includes as prerequisites (-MMD).
UNIT_OBJ := $(BUILD)/unit/obj
unit_objs = $(patsubst %.c,$(UNIT_OBJ)/%.o,$(1))
$(UNIT_OBJ)/%.o: %.c VERSION
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(WARN) $(LFS) $(VERSION_DEF) $(SAN) -DKD_NO_MAIN -DADDR2SYM_NO_MAIN \
		-DKFT_NO_MAIN -Itests/unit -Imodule -Iuserspace -Iuserspace/lib -Iuserspace/kd \
		-Iuserspace/kft -Iuserspace/types -MMD -MP -c -o $@ $<
-include $(shell find $(UNIT_OBJ) -name '*.d' 2>/dev/null)
# Kept: made through pattern rules only, make would delete them as
# intermediate files after the first build, and the next one (make
# check's lint after its unit tests), finding them named by the .d files
# and missing, compiled them all again (12 s; 19 s in make check).
.SECONDARY: $(call unit_objs,$(wildcard tests/unit/*.c) $(LIB_SRC) $(KD_NOLIBS) $(KFT_NOLIBS) \
	userspace/addr2sym.c $(TYPES_SRC))

.SECONDEXPANSION:
$(BUILD)/unit/test_%: $(UNIT_OBJ)/tests/unit/test_%.o $$(call unit_objs,$(UNIT_LIB) $$(UNIT_DEPS_$$*))
	@mkdir -p $(dir $@)
	$(CC) $(SAN) -o $@ $^ -lm $(UNIT_LIBS_$*)

# test_types reads the BTF and DWARF of objects beside it: their
# functions' DWARF from gcc -g, their BTF from pahole -J (.BTF); the
# module's is split BTF over the sample's, as a kernel module's over vmlinux's.
# The sample again in DWARF 4, whose bit-fields say DW_AT_bit_offset; and
# with its types in DWARF 4's type units, linked (an object keeps each unit
# in a .debug_types of its own, and libdw reads only the first). And DWARF
# no compiler writes, assembled (types_crafted.s says what is in it).
$(BUILD)/unit/test_types: | $(BUILD)/unit/types_sample.o $(BUILD)/unit/types_module.o \
	$(BUILD)/unit/types_sample_dwarf4.o $(BUILD)/unit/types_sample_tu.so \
	$(BUILD)/unit/types_crafted.o
$(BUILD)/unit/types_crafted.o: tests/unit/types_crafted.s
	@mkdir -p $(dir $@)
	$(CC) -c -o $@ $<
$(BUILD)/unit/types_sample_dwarf4.o: tests/unit/types_sample.c
	@mkdir -p $(dir $@)
	$(CC) -gdwarf-4 -O0 -c -o $@ $<
$(BUILD)/unit/types_sample_tu.so: tests/unit/types_sample.c
	@mkdir -p $(dir $@)
	$(CC) -gdwarf-4 -fdebug-types-section -O0 -fPIC -shared -nostdlib -o $@ $<
$(BUILD)/unit/types_sample.o: tests/unit/types_sample.c
	@mkdir -p $(dir $@)
	$(CC) -g -O0 -c -o $@ $<
	pahole -J $@
$(BUILD)/unit/types_module.o: tests/unit/types_module.c $(BUILD)/unit/types_sample.o
	$(CC) -g -O0 -c -o $@ $<
	pahole -J --btf_base $(BUILD)/unit/types_sample.o $@

# Fuzzers: each tests/fuzz harness is a libFuzzer program (clang), with
# ASan and UBSan; kd_MODE are one harness built once per kd mode.
# make fuzz runs each for FUZZ_SECONDS (scripts/fuzz).
FUZZ_CC ?= clang
FUZZ_FLAGS := -g -O1 $(WARN) $(LFS) $(VERSION_DEF) -fsanitize=fuzzer,address,undefined \
	-fno-sanitize-recover=all -fno-omit-frame-pointer -DKD_NO_MAIN -DKFT_NO_MAIN -Imodule \
	-Iuserspace -Iuserspace/lib -Iuserspace/kd -Iuserspace/kft -Iuserspace/types
FUZZ_KD_MODES := summary calltree folded json svg flamegraph tasks
FUZZERS := config kftlog kftrec ksyms kftstacks proto typedlog $(addprefix kd_,$(FUZZ_KD_MODES))
FUZZ_DEPS_config := module/kft_config.c
FUZZ_DEPS_kftlog := $(LIB_SRC)
FUZZ_DEPS_kftrec := $(LIB_SRC)
FUZZ_DEPS_ksyms := $(LIB_SRC)
FUZZ_DEPS_kftstacks := $(LIB_SRC) $(KFT_NOLIBS)
# (the written prototypes and the printing: no libbpf, no libdw)
FUZZ_DEPS_proto := $(LIB_SRC) $(addprefix userspace/types/,kftparse.c kftproto.c kftcall.c)
# (a log's calls printed typed, with written prototypes)
FUZZ_DEPS_typedlog := $(LIB_SRC) $(TYPES_CORE) $(TYPES_NONE)

fuzz-build: $(patsubst %,$(BUILD)/fuzz/bin/%,$(FUZZERS))

fuzz-list:
	@echo $(FUZZERS)

fuzz:
	@scripts/fuzz

# The sources the harnesses share, compiled once (-MMD: with their headers).
FUZZ_OBJ := $(BUILD)/fuzz/obj
fuzz_objs = $(patsubst %.c,$(FUZZ_OBJ)/%.o,$(1))
$(FUZZ_OBJ)/%.o: %.c VERSION
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -MMD -MP -c -o $@ $<
-include $(shell find $(FUZZ_OBJ) -name '*.d' 2>/dev/null)
# Kept, as the unit tests' objects (above).
.SECONDARY: $(call fuzz_objs,$(LIB_SRC) $(KD_NOLIBS) $(KFT_NOLIBS) $(TYPES_SRC))

$(BUILD)/fuzz/bin/%: tests/fuzz/fuzz_%.c $$(call fuzz_objs,$$(FUZZ_DEPS_$$*)) $(wildcard userspace/*/*.h module/kft_config.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -o $@ $< $(call fuzz_objs,$(FUZZ_DEPS_$*))

# kd_MODE: FUZZ_KD_MODE is the enum kd_mode (kd_svg: KD_SVG).
$(BUILD)/fuzz/bin/kd_%: tests/fuzz/fuzz_kd.c $(call fuzz_objs,$(LIB_SRC) $(KD_NOLIBS)) \
		$(wildcard userspace/*/*.h)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_FLAGS) -DFUZZ_KD_MODE=KD_$(shell echo $* | tr a-z- A-Z_) -o $@ $< \
		$(call fuzz_objs,$(LIB_SRC) $(KD_NOLIBS))

unit:
	@scripts/unit

lint:
	@scripts/lint

check:
	@scripts/check

check-quick:
	@scripts/check --quick

census:
	@scripts/census

check-debug:
	@scripts/check-debug

# Packaging: DKMS (dkms.conf, scripts/dkms-tree) and the Debian packages.
dkms-check:
	@tests/pkg/dkms

deb:
	@scripts/deb

deb-check:
	@tests/pkg/deb

# True parallelism (QEMU 10 MTTCG): not a gate, see Documentation/testing.rst.
check-mttcg:
	@scripts/check-mttcg

# arm64 (Debian's 6.12 arm64 kernel) and armhf (Debian's 6.1 armmp-lpae),
# cross-built, QEMU virt: not in make check, see Documentation/testing.rst.
check-arch:
	@scripts/check-arch

check-arm64:
	@scripts/check-arch arm64

# The demo: a trace in the VM, then analyzed here with the guest's symbols.
# Its packages first (as root: installed), then the tools.
demo:
	@scripts/deps build vm
	@$(MAKE) --no-print-directory userspace
	@scripts/vm/run -d 6.12
	@scripts/demo-analyze 6.12

# The boot's trace: a kernel with kft built in (config/boot.config, cached),
# booted in QEMU; the files in build/boot (scripts/boot says which).
# ARCH=arm64 or ARCH=armhf: the kernel cross-built for arm64 or 32-bit ARM,
# on QEMU's virt board; the files in build/boot-arm64 or build/boot-armhf.
# (Not passed on: the module's make has its own.)
# KERNEL=5.10: Debian 11's 5.10 source (config/boot-5.10.config), its run
# given by BOOT_ARGS (BOOT_ARGS=kft.static_funcs=F1,F2: 5.10 has no fprobe
# for every function); the files in build/boot-5.10 (with ARCH=arm64,
# build/boot-5.10-arm64).
boot:
	@MAKEFLAGS= scripts/boot -a $(or $(ARCH),x86_64) -k $(or $(KERNEL),6.12) $(BOOT_ARGS)

# Benchmarks: figures, not tests.
# bench: the cost per traced call of kft, ftrace and kprobes on both
# kernels, under QEMU -icount; writes Documentation/performance.md.
bench:
	@scripts/bench

# The same on arm64 (Debian's 6.12 and its newest kernel), without
# bpftrace's rows: a block of its own in Documentation/performance.md.
bench-arm64:
	@scripts/bench arm64 arm64-latest

bench-riscv64:
	@scripts/bench riscv64

bench-armhf:
	@scripts/bench armhf

# What kft adds to a real-time system's wakeup latency (cyclictest on
# Debian's 6.12-rt), against function_graph doing the same jobs.
bench-rt:
	@scripts/bench-rt

bench-kd:
	@scripts/bench-kd

clean:
	rm -rf $(BUILD)
	-$(MAKE) -C $(KDIR) M=$(CURDIR)/module clean 2>/dev/null
