/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DWARF 4 that no compiler writes, for test_types.c: kftdwarf.c reads
 * whatever a file says, and must not overflow, cut a number, or read a
 * DIE of one section at another's offset. Assembled with cc -c.
 *
 *	bitfield_fn(struct crafted *c), whose struct has:
 *	  wide_unit  a DWARF 2 bit-field of a 0x7fffffff-byte storage unit,
 *	             its DW_AT_bit_offset 0x7ffffff0, at byte 2
 *	  far        a bit-field at DW_AT_data_bit_offset 0x100000008
 *	  plain      an int at byte 4
 *	spec_fn(int s), defined by a DIE whose DW_AT_specification is its
 *	  declaration (with DW_AT_declaration): the definition is no
 *	  declaration
 *	tu_fn, a subprogram in a type unit of .debug_types at offset 25,
 *	  where .debug_info has wrong_fn(int w): no function of the index
 *
 * Offsets in comments are from their section's start. libdwfl reads an
 * object with a symbol table only: bitfield_fn's symbol makes one.
 */
	.text
	.globl bitfield_fn
bitfield_fn:
	.byte 0

	.section .debug_abbrev,"",%progbits
	.uleb128 1, 0x11		/* compile_unit */
	.byte 1				/* children */
	.uleb128 0x03, 0x08		/* name, string */
	.uleb128 0x13, 0x0b		/* language, data1 */
	.uleb128 0, 0
	.uleb128 2, 0x2e		/* subprogram */
	.byte 1
	.uleb128 0x03, 0x08
	.uleb128 0, 0
	.uleb128 3, 0x05		/* formal_parameter */
	.byte 0
	.uleb128 0x03, 0x08
	.uleb128 0x49, 0x13		/* type, ref4 */
	.uleb128 0, 0
	.uleb128 4, 0x24		/* base_type */
	.byte 0
	.uleb128 0x03, 0x08
	.uleb128 0x0b, 0x0b		/* byte_size, data1 */
	.uleb128 0x3e, 0x0b		/* encoding, data1 */
	.uleb128 0, 0
	.uleb128 5, 0x0f		/* pointer_type */
	.byte 0
	.uleb128 0x0b, 0x0b
	.uleb128 0x49, 0x13
	.uleb128 0, 0
	.uleb128 6, 0x13		/* structure_type */
	.byte 1
	.uleb128 0x03, 0x08
	.uleb128 0x0b, 0x0b
	.uleb128 0, 0
	.uleb128 7, 0x0d		/* member: a DWARF 2 bit-field */
	.byte 0
	.uleb128 0x03, 0x08
	.uleb128 0x49, 0x13
	.uleb128 0x0b, 0x06		/* byte_size, data4 */
	.uleb128 0x0d, 0x0b		/* bit_size, data1 */
	.uleb128 0x0c, 0x06		/* bit_offset, data4 */
	.uleb128 0x38, 0x0b		/* data_member_location, data1 */
	.uleb128 0, 0
	.uleb128 8, 0x0d		/* member: a DWARF 4 bit-field */
	.byte 0
	.uleb128 0x03, 0x08
	.uleb128 0x49, 0x13
	.uleb128 0x0d, 0x0b
	.uleb128 0x6b, 0x07		/* data_bit_offset, data8 */
	.uleb128 0, 0
	.uleb128 9, 0x2e		/* subprogram: a declaration */
	.byte 0
	.uleb128 0x03, 0x08
	.uleb128 0x3c, 0x19		/* declaration, flag_present */
	.uleb128 0, 0
	.uleb128 10, 0x2e		/* subprogram: a declaration's definition */
	.byte 1
	.uleb128 0x47, 0x13		/* specification, ref4 */
	.uleb128 0, 0
	.uleb128 11, 0x41		/* type_unit */
	.byte 1
	.uleb128 0x13, 0x0b
	.uleb128 0, 0
	.uleb128 12, 0x2e		/* subprogram without children */
	.byte 0
	.uleb128 0x03, 0x08
	.uleb128 0, 0
	.uleb128 13, 0x0d		/* member */
	.byte 0
	.uleb128 0x03, 0x08
	.uleb128 0x49, 0x13
	.uleb128 0x38, 0x0b
	.uleb128 0, 0
	.uleb128 0

	.section .debug_info,"",%progbits
.Lcu:
	.long .Lcu_end - .Lcu - 4	/* unit_length */
	.2byte 4			/* version */
	.long 0				/* debug_abbrev_offset */
	.byte 8				/* address_size */
	.uleb128 1			/* 11: the unit */
	.asciz "types_bad.c"
	.byte 0x0c			/* DW_LANG_C99 */
	.uleb128 2			/* 25: wrong_fn */
	.asciz "wrong_fn"
	.uleb128 3
	.asciz "w"
	.long .Lint - .Lcu
	.byte 0
.Lint:
	.uleb128 4
	.asciz "int"
	.byte 4, 5			/* 4 bytes, DW_ATE_signed */
.Lrecptr:
	.uleb128 5
	.byte 8
	.long .Lrec - .Lcu
.Lrec:
	.uleb128 6
	.asciz "crafted"
	.byte 16
	.uleb128 7
	.asciz "wide_unit"
	.long .Lint - .Lcu
	.long 0x7fffffff		/* byte_size */
	.byte 4				/* bit_size */
	.long 0x7ffffff0		/* bit_offset */
	.byte 2				/* data_member_location */
	.uleb128 8
	.asciz "far"
	.long .Lint - .Lcu
	.byte 4
	.quad 0x100000008		/* data_bit_offset */
	.uleb128 13
	.asciz "plain"
	.long .Lint - .Lcu
	.byte 4
	.byte 0				/* the struct's end */
	.uleb128 2
	.asciz "bitfield_fn"
	.uleb128 3
	.asciz "c"
	.long .Lrecptr - .Lcu
	.byte 0
.Ldecl:
	.uleb128 9
	.asciz "spec_fn"
	.uleb128 10
	.long .Ldecl - .Lcu
	.uleb128 3
	.asciz "s"
	.long .Lint - .Lcu
	.byte 0
	.byte 0				/* the unit's end */
.Lcu_end:

	.section .debug_types,"",%progbits
.Ltu:
	.long .Ltu_end - .Ltu - 4	/* unit_length */
	.2byte 4			/* version */
	.long 0				/* debug_abbrev_offset */
	.byte 8				/* address_size */
	.quad 0x1234567890abcdef	/* type_signature */
	.long .Ltu_type - .Ltu		/* type_offset */
	.uleb128 11			/* 23: the unit */
	.byte 0x0c
	.uleb128 12			/* 25: tu_fn */
	.asciz "tu_fn"
.Ltu_type:
	.uleb128 4
	.asciz "long"
	.byte 8, 5
	.byte 0
.Ltu_end:
