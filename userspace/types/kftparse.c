// SPDX-License-Identifier: GPL-2.0
/*
 * Written prototypes (kftparse.h). The text is split into tokens first;
 * the function's name is the identifier before the first "(", the tokens
 * before it its return type, those between the parentheses its
 * parameters, each a type, pointers and an optional name. A type is a
 * list of words checked as they come, so that an error points at the
 * first word that cannot be there ("int char": at "char").
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kftparse.h"
#include "strtab.h"

enum kftok_kind { TOK_END, TOK_IDENT, TOK_NUMBER, TOK_STAR, TOK_LPAREN, TOK_RPAREN,
		  TOK_COMMA, TOK_ELLIPSIS, TOK_SEMI, TOK_LBRACKET, TOK_RBRACKET };

struct kftok {
	enum kftok_kind kind;
	const char *s;
	size_t len;
	int column;
};

struct kftparser {
	struct kftok *toks;
	int nr_toks, i;
	unsigned int word;
	struct strtab *names;
	struct kfttypes_error *err;
};

/* The words of a type so far: "unsigned long" is sign 'u', longs 1. */
struct kftspec {
	char sign;		/* 's', 'u' or 0 */
	int longs;
	bool is_int, is_short, is_char;
	const struct kftnamed *named;	/* _Bool, void, size_t, struct X, ... */
	bool user;
};

/* A type named by one word (or "struct", "union", "enum" and a tag). */
struct kftnamed {
	const char *name;
	enum kftype_kind kind;
	unsigned char size;	/* 0: a word (long) */
	bool is_signed;
};

static const struct kftnamed kft_named[] = {
	{ "void", KFTYPE_VOID, 0, false },
	{ "_Bool", KFTYPE_BOOL, 1, false }, { "bool", KFTYPE_BOOL, 1, false },
	{ "size_t", KFTYPE_INT, 0, false }, { "ssize_t", KFTYPE_INT, 0, true },
	{ "uintptr_t", KFTYPE_INT, 0, false }, { "off_t", KFTYPE_INT, 0, true },
	{ "u8", KFTYPE_INT, 1, false }, { "u16", KFTYPE_INT, 2, false },
	{ "u32", KFTYPE_INT, 4, false }, { "u64", KFTYPE_INT, 8, false },
	{ "s8", KFTYPE_INT, 1, true }, { "s16", KFTYPE_INT, 2, true },
	{ "s32", KFTYPE_INT, 4, true }, { "s64", KFTYPE_INT, 8, true },
	{ "__u8", KFTYPE_INT, 1, false }, { "__u16", KFTYPE_INT, 2, false },
	{ "__u32", KFTYPE_INT, 4, false }, { "__u64", KFTYPE_INT, 8, false },
	{ "__s8", KFTYPE_INT, 1, true }, { "__s16", KFTYPE_INT, 2, true },
	{ "__s32", KFTYPE_INT, 4, true }, { "__s64", KFTYPE_INT, 8, true },
	{ "uint8_t", KFTYPE_INT, 1, false }, { "uint16_t", KFTYPE_INT, 2, false },
	{ "uint32_t", KFTYPE_INT, 4, false }, { "uint64_t", KFTYPE_INT, 8, false },
	{ "int8_t", KFTYPE_INT, 1, true }, { "int16_t", KFTYPE_INT, 2, true },
	{ "int32_t", KFTYPE_INT, 4, true }, { "int64_t", KFTYPE_INT, 8, true },
	{ "loff_t", KFTYPE_INT, 8, true }, { "sector_t", KFTYPE_INT, 8, false },
	{ "pid_t", KFTYPE_INT, 4, true }, { "uid_t", KFTYPE_INT, 4, false },
	{ "gid_t", KFTYPE_INT, 4, false }, { "dev_t", KFTYPE_INT, 4, false },
	{ "gfp_t", KFTYPE_INT, 4, false }, { "fmode_t", KFTYPE_INT, 4, false },
	{ "umode_t", KFTYPE_INT, 2, false },
};
static const struct kftnamed kft_record = { "struct", KFTYPE_RECORD, 0, false };
static const struct kftnamed kft_enum = { "enum", KFTYPE_ENUM, 4, true };

/* Words that qualify a type without changing how its value prints. */
static const char *const kft_qualifiers[] = {
	"const", "volatile", "restrict", "__restrict", "__user", "__kernel", "__iomem",
	"__percpu", "__rcu", "__force", "static", "extern", "inline", "notrace", "asmlinkage",
};

__attribute__((format(printf, 3, 4)))
static void parse_error(struct kftparser *p, int column, const char *fmt, ...)
{
	va_list ap;

	if (p->err->msg[0])
		return;		/* the first error is the one to say */
	p->err->column = column;
	va_start(ap, fmt);
	vsnprintf(p->err->msg, sizeof(p->err->msg), fmt, ap);
	va_end(ap);
}

static bool tok_is(const struct kftok *t, const char *word)
{
	return t->kind == TOK_IDENT && t->len == strlen(word) && !memcmp(t->s, word, t->len);
}

static const struct kftok *tok_peek(const struct kftparser *p)
{
	return &p->toks[p->i];
}

/* A token's text for an error message: "foo", ")", or "the end". */
static const char *tok_text(const struct kftok *t, char *buf, size_t len)
{
	if (t->kind == TOK_END)
		return "the end";
	snprintf(buf, len, "'%.*s'", (int)(t->len > 40 ? 40 : t->len), t->s);
	return buf;
}

static void unexpected(struct kftparser *p, const struct kftok *t, const char *wanted)
{
	char buf[48];

	parse_error(p, t->column, "expected %s, not %s", wanted, tok_text(t, buf, sizeof(buf)));
}

/* One token at text[*pos]: false, with the error said, at a character C has no use for. */
static bool lex_one(struct kftparser *p, const char *text, size_t len, size_t *pos,
		    struct kftok *t)
{
	static const char punct[] = "*(),;[]";
	static const enum kftok_kind kinds[] = { TOK_STAR, TOK_LPAREN, TOK_RPAREN, TOK_COMMA,
						 TOK_SEMI, TOK_LBRACKET, TOK_RBRACKET };
	const char *s = text + *pos, *hit;
	unsigned char c = *s;

	t->s = s;
	t->column = (int)*pos + 1;
	if (isalnum(c) || c == '_') {
		t->len = 1;
		while (*pos + t->len < len && (isalnum((unsigned char)s[t->len]) || s[t->len] == '_'))
			t->len++;
		t->kind = isdigit(c) ? TOK_NUMBER : TOK_IDENT;
	} else if (len - *pos >= 3 && !memcmp(s, "...", 3)) {
		t->kind = TOK_ELLIPSIS;
		t->len = 3;
	} else if (c && (hit = strchr(punct, c))) {
		t->kind = kinds[hit - punct];
		t->len = 1;
	} else {
		if (!c)
			parse_error(p, t->column, "a NUL byte");
		else if (isprint(c))
			parse_error(p, t->column, "unexpected '%c'", c);
		else
			parse_error(p, t->column, "unexpected byte 0x%02x", c);
		return false;
	}
	*pos += t->len;
	return true;
}

/* text[0..len) as tokens, closed by TOK_END: 0, or -EINVAL / -ENOMEM said. */
static int lex(struct kftparser *p, const char *text, size_t len)
{
	size_t pos = 0;

	p->toks = calloc(len + 1, sizeof(*p->toks));
	if (!p->toks) {
		parse_error(p, 0, "out of memory");
		return -ENOMEM;
	}
	while (pos < len) {
		struct kftok *t = &p->toks[p->nr_toks];

		if (isspace((unsigned char)text[pos])) {
			pos++;
			continue;
		}
		if (!lex_one(p, text, len, &pos, t))
			return -EINVAL;
		if (t->kind == TOK_IDENT && t->len > KFTPARSE_MAX_NAME) {
			parse_error(p, t->column, "a name longer than %d bytes", KFTPARSE_MAX_NAME);
			return -EINVAL;
		}
		p->nr_toks++;
	}
	p->toks[p->nr_toks].kind = TOK_END;
	p->toks[p->nr_toks].column = (int)len + 1;
	return 0;
}

static const struct kftnamed *named_type(const struct kftok *t)
{
	size_t i;

	for (i = 0; i < sizeof(kft_named) / sizeof(kft_named[0]); i++)
		if (tok_is(t, kft_named[i].name))
			return &kft_named[i];
	return NULL;
}

static bool is_qualifier(const struct kftok *t)
{
	size_t i;

	for (i = 0; i < sizeof(kft_qualifiers) / sizeof(kft_qualifiers[0]); i++)
		if (tok_is(t, kft_qualifiers[i]))
			return true;
	return false;
}

/* A word of C's integer types: false when the words before exclude it. */
static bool spec_add_int_word(struct kftspec *sp, const struct kftok *t)
{
	bool plain = !sp->named && !sp->is_char;

	if (tok_is(t, "signed") || tok_is(t, "unsigned")) {
		if (sp->sign || sp->named)
			return false;
		sp->sign = tok_is(t, "signed") ? 's' : 'u';
	} else if (tok_is(t, "char")) {
		if (!plain || sp->is_int || sp->is_short || sp->longs)
			return false;
		sp->is_char = true;
	} else if (tok_is(t, "short")) {
		if (!plain || sp->is_short || sp->longs)
			return false;
		sp->is_short = true;
	} else if (tok_is(t, "long")) {
		if (!plain || sp->is_short || sp->longs == 2)
			return false;
		sp->longs++;
	} else {	/* int */
		if (!plain || sp->is_int)
			return false;
		sp->is_int = true;
	}
	return true;
}

static bool is_int_word(const struct kftok *t)
{
	return tok_is(t, "signed") || tok_is(t, "unsigned") || tok_is(t, "char") ||
	       tok_is(t, "short") || tok_is(t, "long") || tok_is(t, "int");
}

static bool spec_empty(const struct kftspec *sp)
{
	return !sp->sign && !sp->longs && !sp->is_int && !sp->is_short && !sp->is_char &&
	       !sp->named;
}

/*
 * "struct X", "union X" or "enum X" at the parser's token: the tag's
 * token consumed too. False, said, without a tag.
 */
static bool spec_add_tagged(struct kftparser *p, struct kftspec *sp, const struct kftok *t)
{
	const struct kftok *tag = &p->toks[p->i + 1];

	if (!spec_empty(sp)) {
		parse_error(p, t->column, "'%.*s' cannot follow the words before it", (int)t->len, t->s);
		return false;
	}
	if (tag->kind != TOK_IDENT) {
		unexpected(p, tag, "a name");
		return false;
	}
	sp->named = tok_is(t, "enum") ? &kft_enum : &kft_record;
	p->i += 2;
	return true;
}

/*
 * The words of a type up to its pointers or its name: true with @sp
 * filled, false with the error said.
 */
static bool parse_spec(struct kftparser *p, struct kftspec *sp)
{
	for (;;) {
		const struct kftok *t = tok_peek(p);
		const struct kftnamed *named;

		if (t->kind != TOK_IDENT)
			break;
		if (is_qualifier(t)) {
			sp->user |= tok_is(t, "__user");
		} else if (tok_is(t, "struct") || tok_is(t, "union") || tok_is(t, "enum")) {
			if (!spec_add_tagged(p, sp, t))
				return false;
			continue;
		} else if (is_int_word(t)) {
			if (!spec_add_int_word(sp, t)) {
				parse_error(p, t->column, "'%.*s' cannot follow the words before it",
					    (int)t->len, t->s);
				return false;
			}
		} else if ((named = named_type(t)) && spec_empty(sp)) {
			sp->named = named;
		} else if (spec_empty(sp)) {
			parse_error(p, t->column, "unknown type '%.*s'", (int)t->len, t->s);
			return false;
		} else {
			break;	/* the name */
		}
		p->i++;
	}
	if (spec_empty(sp)) {
		unexpected(p, tok_peek(p), "a type");
		return false;
	}
	return true;
}

/* The type the words of @sp make, @stars pointers deep. */
static struct kftype spec_type(const struct kftparser *p, const struct kftspec *sp, int stars)
{
	struct kftype t = { .kind = KFTYPE_INT, .is_signed = sp->sign != 'u', .user = sp->user };

	if (stars) {
		bool plain_char = sp->is_char && !sp->sign;

		t.kind = stars == 1 && plain_char ? KFTYPE_STR : KFTYPE_PTR;
		t.size = p->word;
		t.is_signed = false;
		return t;
	}
	t.user = false;
	if (sp->named) {
		t.kind = sp->named->kind;
		t.size = sp->named->size ? sp->named->size : p->word;
		t.is_signed = sp->named->is_signed;
		if (t.kind == KFTYPE_VOID)
			t.size = 0;
	} else if (sp->is_char) {
		t.size = 1;
	} else if (sp->is_short) {
		t.size = 2;
	} else {
		t.size = sp->longs == 2 ? 8 : sp->longs == 1 ? p->word : 4;
	}
	return t;
}

/*
 * A type and its pointers ("const char __user *"), then a name when
 * @name is not NULL and one is there: false with the error said.
 */
static bool parse_type(struct kftparser *p, struct kftype *type, const char **name)
{
	struct kftspec sp = { 0 };
	const struct kftok *t;
	int stars = 0;

	if (!parse_spec(p, &sp))
		return false;
	for (t = tok_peek(p); t->kind == TOK_STAR || (t->kind == TOK_IDENT && is_qualifier(t));
	     t = tok_peek(p)) {
		stars += t->kind == TOK_STAR;
		sp.user |= tok_is(t, "__user");
		p->i++;
	}
	if (name && t->kind == TOK_IDENT) {
		*name = strtab__add(p->names, t->s, t->len);
		if (!*name) {
			parse_error(p, t->column, "out of memory for names");
			return false;
		}
		p->i++;
	}
	*type = spec_type(p, &sp, stars);
	return true;
}

/* After a parameter's name: what C allows there that kft does not read. */
static bool parse_declarator_end(struct kftparser *p)
{
	const struct kftok *t = tok_peek(p);

	if (t->kind == TOK_LBRACKET)
		parse_error(p, t->column, "an array: write a pointer");
	else if (t->kind == TOK_LPAREN)
		parse_error(p, t->column, "a function pointer: write void *");
	else
		return true;
	return false;
}

/* The parameters after "(": up to and with ")". False with the error said. */
static bool parse_params(struct kftparser *p, struct kftproto *proto)
{
	const struct kftok *t = tok_peek(p);

	if (tok_is(t, "void") && p->toks[p->i + 1].kind == TOK_RPAREN)
		p->i++;
	for (t = tok_peek(p); t->kind != TOK_RPAREN; t = tok_peek(p)) {
		struct kftype type;
		const char *name = NULL;

		if (proto->nr_params || proto->variadic) {
			if (t->kind != TOK_COMMA) {
				unexpected(p, t, "',' or ')'");
				return false;
			}
			t = &p->toks[++p->i];
		}
		if (t->kind == TOK_ELLIPSIS) {
			proto->variadic = true;
			p->i++;
			if (tok_peek(p)->kind != TOK_RPAREN) {
				unexpected(p, tok_peek(p), "')' after '...'");
				return false;
			}
			break;
		}
		if (!parse_type(p, &type, &name) || !parse_declarator_end(p))
			return false;
		if (type.kind == KFTYPE_VOID) {
			parse_error(p, t->column, "a parameter of type void");
			return false;
		}
		kftproto__add_param(proto, name, &type);
	}
	p->i++;
	return true;
}

/* The return type, from the first token to the name at @name_at. */
static bool parse_return(struct kftparser *p, int name_at, struct kftype *ret)
{
	ret->kind = KFTYPE_UNKNOWN;
	ret->size = p->word;
	if (name_at == 0)
		return true;
	if (!parse_type(p, ret, NULL))
		return false;
	if (p->i != name_at) {
		unexpected(p, tok_peek(p), "the function's name");
		return false;
	}
	return true;
}

/* The index of the function's name: the identifier before the first "(". */
static int find_name(struct kftparser *p)
{
	int i;

	for (i = 0; i < p->nr_toks && p->toks[i].kind != TOK_LPAREN; i++)
		;
	if (i == p->nr_toks) {
		unexpected(p, &p->toks[i], "'(' after the function's name");
		return -1;
	}
	if (i == 0 || p->toks[i - 1].kind != TOK_IDENT || is_qualifier(&p->toks[i - 1]) ||
	    is_int_word(&p->toks[i - 1]) || named_type(&p->toks[i - 1])) {
		unexpected(p, i ? &p->toks[i - 1] : &p->toks[i], "the function's name before '('");
		return -1;
	}
	return i - 1;
}

static struct kftproto *parse(struct kftparser *p)
{
	struct kftproto *proto;
	const struct kftok *t;
	const char *name;
	int name_at = find_name(p);

	if (name_at < 0)
		return NULL;
	name = strtab__add(p->names, p->toks[name_at].s, p->toks[name_at].len);
	proto = name ? kftproto__new(name) : NULL;
	if (!proto) {
		parse_error(p, 0, "out of memory");
		return NULL;
	}
	if (!parse_return(p, name_at, &proto->ret))
		goto err_free_proto;
	p->i = name_at + 2;
	if (!parse_params(p, proto))
		goto err_free_proto;
	if (tok_peek(p)->kind == TOK_SEMI)
		p->i++;
	t = tok_peek(p);
	if (t->kind != TOK_END) {
		unexpected(p, t, "the end after ')'");
		goto err_free_proto;
	}
	return proto;

err_free_proto:
	kftproto__free(proto);
	return NULL;
}

struct kftproto *kftparse__prototype(const char *text, size_t len, unsigned int word_bytes,
				     struct strtab *names, struct kfttypes_error *err)
{
	struct kftparser p = { .word = word_bytes, .names = names, .err = err };
	struct kftproto *proto = NULL;

	err->column = 0;
	err->msg[0] = '\0';
	if (len > KFTPARSE_MAX_LEN)
		parse_error(&p, KFTPARSE_MAX_LEN + 1, "a prototype longer than %d bytes",
			    KFTPARSE_MAX_LEN);
	else if (!lex(&p, text, len))
		proto = parse(&p);
	free(p.toks);
	return proto;
}
