// SPDX-License-Identifier: GPL-2.0
/*
 * kft record without the module: its options and configuration, one read
 * of a stream run's /proc/kft_data (rows out, header kept, losses read,
 * every disagreement said), the file's header with the count of every
 * row, the losses' text; and kd's sort of a log whose rows are not in
 * entry order (kftlog__sort()).
 */
#include <errno.h>
#include <stdlib.h>
#include "unit.h"
#include "kft.h"
#include "kftargs.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void test_record_args(void)
{
	static const struct {
		const char *line;
		int ret;
		const char *err;
	} cases[] = {
		{ "kft record -o f", 0, "" },
		{ "kft record --output f -e 100 -d 1.5 -p 7 -c sh --fast vfs_* kft_test:leaf", 0, "" },
		{ "kft record -h", 0, "" },
		{ "kft record", -1, "record: no -o FILE" },
		{ "kft record vfs_read", -1, "record: no -o FILE" },
		{ "kft record -o", -1, "record: option -o needs an argument" },
		{ "kft record -o f -e 0", -1, "-e: not a number of calls a CPU (1..16777216): '0'" },
		{ "kft record -o f -e 16777217", -1, "-e: not a number of calls a CPU" },
		{ "kft record -o f -d 0", -1, "-d: not a number of seconds '0'" },
		{ "kft record -o f -p 0", -1, "-p: not a process id" },
		{ "kft record -o f -c end", -1, "-c: not a task's name" },
		{ "kft record -o f -n 5", -1, "record: unknown option '-n'" },
		{ "kft record -o f --nosuch", -1, "record: unknown option '--nosuch'" },
		{ "kft record -o f -a --offcpu vfs_read", 0, "" },
		{ "kft record -o f --offcpu=1", -1, "record: option --offcpu takes no argument" },
		{ "kft record -o f --st 2", -1,
		  "record: option '--st' is ambiguous: --string, --struct" },
		{ "kft record -o f vfs_read -a", -1, "record: -a: options go before FUNCTION" },
	};
	struct kft_params p;
	char err[256];
	size_t i;
	int ret;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		err[0] = '\0';
		ret = kft_parse_line(cases[i].line, &p, err, sizeof(err));
		CHECK(ret == cases[i].ret && p.sub == KFT_SUB_RECORD &&
		      !strncmp(err, cases[i].err, strlen(cases[i].err)) && (ret || !err[0]),
		      "'%s': ret %d sub %d err '%s', expected %d '%s'", cases[i].line, ret, p.sub,
		      err, cases[i].ret, cases[i].err);
	}
	kft_parse_line(cases[1].line, &p, err, sizeof(err));
	CHECK(!strcmp(p.output, "f") && p.entries == 100 && p.duration == 1.5 && p.pid == 7 &&
	      !strcmp(p.comm, "sh") && p.fast && p.nr_patterns == 2 &&
	      !strcmp(p.patterns[1], "kft_test:leaf"), "options read: entries %ld pid %ld",
	      p.entries, p.pid);
	kft_parse_line("kft record -o f", &p, err, sizeof(err));
	CHECK(!p.nr_patterns && !p.entries && !p.fast && !p.args && !p.offcpu,
	      "no FUNCTION: %d", p.nr_patterns);
	kft_parse_line("kft record -o f -a --offcpu vfs_read", &p, err, sizeof(err));
	CHECK(p.args && p.offcpu && p.nr_patterns == 1, "-a --offcpu: args %d offcpu %d", p.args,
	      p.offcpu);
}

static void test_record_config(void)
{
	static const struct {
		const char *line;
		const char *config;
	} cases[] = {
		{ "kft record -o f", "new begin mode trace log stream units ns end\n" },
		{ "kft record -o f --fast -e 4096 -p 7 -c sh vfs_* kft_test:leaf",
		  "new begin mode trace hooks fast log stream units ns filter funclist vfs_* "
		  "kft_test:leaf fend filter pid 7 filter comm sh logentries 4096 end\n" },
		{ "kft record -o f -a --offcpu vfs_read",
		  "new begin mode trace log stream units ns offcpu args filter funclist vfs_read "
		  "fend end\n" },
		{ "kft record -o f -a kft_test_args",
		  "new begin mode trace log stream units ns args filter funclist kft_test_args "
		  "fend end\n" },
	};
	struct kft_params p;
	char err[256], *text;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		CHECK(!kft_parse_line(cases[i].line, &p, err, sizeof(err)), "'%s': %s", cases[i].line, err);
		text = kft_record_config(&p, err, sizeof(err));
		CHECK_STR(text, cases[i].config, cases[i].line);
		free(text);
	}
	/* A pattern is one word: no statement slips in through it. */
	CHECK(!kft_parse_line("kft record -o f a#b", &p, err, sizeof(err)), "parsed: %s", err);
	err[0] = '\0';
	text = kft_record_config(&p, err, sizeof(err));
	CHECK(!text && strstr(err, "not a function pattern: 'a#b'"), "a#b: '%s'", err);
	free(text);
}

#define ROW_A "      20        5    10.0  0xffffffff81000200  0xffffffff81000108 cat 0x0\n"
#define ROW_B "       5       50    10.1  0xffffffff81000100  0xffffffff81000005 cat -2\n"

/* A stream read's text: its stopped line, losses, count, then rows. */
static char *read_text(const char *lost, const char *per_cpu, const char *count,
		       const char *rows)
{
	static char buf[4096];

	snprintf(buf, sizeof(buf),
		 "\nKernel Instrumentation Run ID 3\nKernel: 6.12.0\n\n"
		 "Logging started at 1000 usec by user action\nLogging not stopped\n\n"
		 "Filter Counters:\n\nTotal entries filtered = 0\nEntries not found = 0\n"
		 "Units: ns\nLog stream = 32768 entries a CPU\n%s%s\n"
		 "Number of entries after filters = %s\n\n"
		 " Entry    Delta     PID        Function                        Caller\n"
		 "-------- -------- -------- ----------------                 ------------\n%s",
		 lost, per_cpu, count, rows);
	return buf;
}

/* text read as one read: rows into *rows (malloc'ed), warnings into *warn, the check's count. */
static int read_one(const char *text, struct kft_stream_read *r, char **rows, char **warn)
{
	size_t rlen, wlen;
	FILE *out = open_memstream(rows, &rlen), *w = open_memstream(warn, &wlen);
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	int problems;

	kft_stream_init(r, out, w, "kft_data");
	CHECK(!kft_stream_read_all(r, in), "read: %s", strerror(errno));
	problems = kft_stream_check(r);
	fclose(in);
	fclose(out);
	fclose(w);
	return problems;
}

/* kft_stream_lost_put()'s text of r (to free). */
static char *lost_text(const struct kft_stream_read *r)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	kft_stream_lost_put(r, f);
	fclose(f);
	return text;
}

/* Every CPU that lost calls is named, however many there are. */
static void test_stream_lost_many_cpus(void)
{
	unsigned long long each[300];
	struct kft_stream_read r = { .has_lost = 1, .lost = 300, .has_lost_cpus = 1,
				     .nr_cpus = 300, .lost_cpus = each };
	char *lost;
	size_t i;

	for (i = 0; i < 300; i++)
		each[i] = 1;
	lost = lost_text(&r);
	CHECK(!strncmp(lost, "300 lost (CPU 0: 1, CPU 1: 1, ", 30) &&
	      strstr(lost, ", CPU 299: 1)") && strlen(lost) > 3000, "300 CPUs: %s", lost);
	free(lost);
}

static void test_stream_read(void)
{
	struct kft_stream_read r, last;
	char *rows, *warn, *lost;
	const char *text = read_text("Calls lost = 42\n", "Calls lost per CPU = 40 0 2\n", "2",
				     ROW_A "\n" ROW_B);

	CHECK(!read_one(text, &r, &rows, &warn), "problems: %s", warn);
	CHECK_STR(rows, ROW_A ROW_B, "the rows, as read, blank lines left out");
	CHECK_STR(warn, "", "no warning");
	CHECK(r.stream && r.per_cpu == 32768 && r.rows == 2 && !r.malformed && r.has_lost &&
	      r.lost == 42 && r.has_lost_cpus && r.nr_cpus == 3 && r.lost_cpus[0] == 40 &&
	      r.lost_cpus[2] == 2 && r.head.run_id == 3 && r.head.started && !r.head.stopped,
	      "read: stream %d per_cpu %llu rows %llu lost %llu cpus %zu", r.stream, r.per_cpu,
	      r.rows, r.lost, r.nr_cpus);
	CHECK(r.header_len == strlen(text) - strlen(ROW_A "\n" ROW_B) &&
	      !memcmp(r.header, text, r.header_len), "the header kept, to the dashes: %zu",
	      r.header_len);
	lost = lost_text(&r);
	CHECK_STR(lost, "42 lost (CPU 0: 40, CPU 2: 2)", "losses, the CPUs that lost some");
	free(lost);
	/* Kept as the last read's: r is empty then. */
	kft_stream_init(&last, NULL, NULL, "");
	kft_stream_move(&last, &r);
	CHECK(last.header && last.lost_cpus && !r.header && !r.lost_cpus && last.rows == 2,
	      "moved: %p", (void *)r.header);
	kft_stream_free(&last);
	kft_stream_free(&r);
	free(rows);
	free(warn);

	read_one(read_text("Calls lost = 0\n", "Calls lost per CPU = 0 0\n", "0", ""), &r, &rows,
		 &warn);
	lost = lost_text(&r);
	CHECK_STR(lost, "0 lost", "nothing lost");
	free(lost);
	CHECK(!r.rows && !r.malformed && !warn[0], "an empty read: %s", warn);
	kft_stream_free(&r);
	free(rows);
	free(warn);
}

/* Each disagreement within a read is said, and counted. */
static void test_stream_disagreements(void)
{
	static const struct {
		const char *lost, *per_cpu, *count, *rows, *warn;
	} cases[] = {
		{ "Calls lost = 0\n", "Calls lost per CPU = 0 0\n", "3", ROW_A ROW_B,
		  "kft: record: kft_data: 2 rows read, but the header counts 3\n" },
		{ "Calls lost = 5\n", "Calls lost per CPU = 1 2\n", "2", ROW_A ROW_B,
		  "kft: record: kft_data: 5 calls lost, but the CPUs' losses add up to 3\n" },
		{ "", "", "2", ROW_A ROW_B,
		  "kft: record: kft_data: the header does not say how many calls were lost (no "
		  "'Calls lost = L' or 'Calls lost per CPU = ...' line)\n" },
		{ "Calls lost = many\n", "Calls lost per CPU = 1 x\n", "2", ROW_A ROW_B,
		  "kft: record: kft_data:14: the header's 'Calls lost' line says no number\n"
		  "kft: record: kft_data:15: the header's 'Calls lost per CPU' line says no number\n"
		  "kft: record: kft_data: the header does not say how many calls were lost (no "
		  "'Calls lost = L' or 'Calls lost per CPU = ...' line)\n" },
		{ "Calls lost = 0\n", "Calls lost per CPU = 0\n", "2", ROW_A "garbage\n",
		  "kft: record: kft_data:22: malformed row skipped (not 'ENTRY DELTA PID.CPU "
		  "FUNCTION CALLER COMM RETURN')\n" },
		{ "Calls lost = 0\n", "Calls lost per CPU = 0\n", "x", ROW_A,
		  "kft: record: kft_data: the header counts no rows (no 'Number of entries after "
		  "filters = N' line)\n" },
		{ "Calls lost = 0\n", "Calls lost per CPU = 0\n", "1",
		  "      20        5    10.0  0xffffffff81000200  0xffffffff81000108 cat 0x0",
		  "kft: record: kft_data: the read ends inside a line\n" },
	};
	struct kft_stream_read r;
	char *rows, *warn;
	size_t i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		CHECK(read_one(read_text(cases[i].lost, cases[i].per_cpu, cases[i].count,
					 cases[i].rows), &r, &rows, &warn) > 0,
		      "case %zu: no problem found", i);
		CHECK_STR(warn, cases[i].warn, "the warning");
		kft_stream_free(&r);
		free(rows);
		free(warn);
	}
	/* A malformed row is not written; the row after it is. */
	read_one(read_text("Calls lost = 0\n", "Calls lost per CPU = 0\n", "2", "garbage\n" ROW_B),
		 &r, &rows, &warn);
	CHECK_STR(rows, ROW_B, "only the row");
	CHECK(r.rows == 1 && r.malformed == 1, "rows %llu malformed %llu", r.rows, r.malformed);
	kft_stream_free(&r);
	free(rows);
	free(warn);
}

/* A header line over KFT_STREAM_LINE_MAX, or a header over KFT_STREAM_HEADER_MAX. */
static void test_stream_long_lines(void)
{
	size_t n = KFT_STREAM_LINE_MAX + 10, rlen, wlen;
	char *text = malloc(n + 128), *rows, *warn;
	struct kft_stream_read r;
	FILE *in, *out, *w;
	int ret;

	memset(text, 'x', n);
	strcpy(text + n, "\n--------\n" ROW_A);
	in = fmemopen(text, strlen(text), "r");
	out = open_memstream(&rows, &rlen);
	w = open_memstream(&warn, &wlen);
	kft_stream_init(&r, out, w, "kft_data");
	CHECK(!kft_stream_read_all(&r, in), "read");
	fclose(out);
	fclose(w);
	fclose(in);
	CHECK(strstr(warn, "kft_data:1: a header line over 65536 bytes") && r.rows == 1 &&
	      r.bad_header == 1, "long line: '%s'", warn);
	kft_stream_free(&r);
	free(rows);
	free(warn);

	/* A header that never ends: EFBIG, not memory without end. */
	free(text);
	n = KFT_STREAM_HEADER_MAX + 1000;
	text = malloc(n + 1);
	for (size_t i = 0; i < n; i++)
		text[i] = i % 100 == 99 ? '\n' : 'h';
	text[n] = '\0';
	in = fmemopen(text, n, "r");
	kft_stream_init(&r, NULL, NULL, "kft_data");
	errno = 0;
	ret = kft_stream_read_all(&r, in);
	CHECK(ret == -1 && errno == EFBIG && r.header_len <= KFT_STREAM_HEADER_MAX,
	      "a header too long: %d %s", ret, strerror(errno));
	fclose(in);
	kft_stream_free(&r);
	free(text);
}

/* The row writes' error is the rows file's: a full disk is seen there. */
static void test_stream_rows_full(void)
{
	char small[64];
	const char *text = read_text("Calls lost = 0\n", "Calls lost per CPU = 0\n", "2",
				     ROW_A ROW_B);
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	FILE *out = fmemopen(small, sizeof(small), "w");
	struct kft_stream_read r;

	setvbuf(out, NULL, _IONBF, 0);
	kft_stream_init(&r, out, NULL, "kft_data");
	CHECK(!kft_stream_read_all(&r, in), "the read goes on");
	CHECK(ferror(out) || fflush(out), "the rows file's error");
	fclose(in);
	fclose(out);
	kft_stream_free(&r);
}

static char *header_written(const char *header, unsigned long long rows)
{
	char *out;
	size_t len;
	FILE *f = open_memstream(&out, &len);

	CHECK(!kft_stream_header_write(f, header, strlen(header), rows), "written");
	fclose(f);
	return out;
}

static void test_header_rewritten(void)
{
	char *s;

	s = header_written("Run\nNumber of entries after filters = 7\n\n titles\n--------\n",
			   123456);
	CHECK_STR(s, "Run\nNumber of entries after filters = 123456\n\n titles\n--------\n",
		  "the count says every row");
	free(s);
	/* None: one before the dashes, so that kd checks the rows. */
	s = header_written("Run\n titles\n-------- ----\n", 3);
	CHECK_STR(s, "Run\n titles\nNumber of entries after filters = 3\n-------- ----\n",
		  "a count added");
	free(s);
	s = header_written("Number of entries after filters = 1\nNumber of entries after "
			   "filters = 2\n--------\n", 9);
	CHECK_STR(s, "Number of entries after filters = 9\n--------\n", "one count");
	free(s);
}

/* A log of entries, read and sorted: the entries, and the order of equal ones (the pid). */
static void check_sorted(const char *text, const char *want)
{
	struct kftlog *log = kftlog__parse(text, strlen(text), "log", NULL);
	char got[1024] = "";
	size_t i, used = 0;

	CHECK(log && !kftlog__sort(log), "sorted");
	for (i = 0; log && i < log->nr; i++)
		used += (size_t)snprintf(got + used, sizeof(got) - used, "%s%lld/%d",
					 i ? " " : "", log->rows[i].entry, log->rows[i].pid);
	CHECK_STR(got, want, "the rows' order");
	kftlog__free(log);
}

static void test_log_sorted_by_entry(void)
{
	struct kftlog *log;
	char text[65536];
	size_t used, k;
	int i, ok;

	check_sorted("--------\n5 1 1.0 f c\n3 1 2.0 f c\n5 1 3.0 f c\n1 1 4.0 f c\n"
		     "3 1 5.0 f c\n", "1/4 3/2 3/5 5/1 5/3");
	check_sorted("--------\n1 1 1.0 f c\n2 1 2.0 f c\n", "1/1 2/2");
	check_sorted("--------\n", "");
	/* Three reads of a record, each in order, interleaved in time: row i's pid is i. */
	used = (size_t)snprintf(text, sizeof(text), "--------\n");
	for (i = 0; i < 300; i++)
		used += (size_t)snprintf(text + used, sizeof(text) - used, "%d 1 %d.0 f c\n",
					 (i % 100) * 3 + i / 100, i);
	log = kftlog__parse(text, strlen(text), "log", NULL);
	ok = log && !kftlog__sort(log) && log->nr == 300;
	for (k = 0; ok && k < log->nr; k++)
		ok = log->rows[k].entry == (long long)k &&
		     log->rows[k].pid == (int)((k % 3) * 100 + k / 3);
	CHECK(ok, "300 rows of 3 reads merged, each row whole");
	kftlog__free(log);
}

UNIT_MAIN(test_record_args, test_record_config, test_stream_read, test_stream_lost_many_cpus, test_stream_disagreements,
	  test_stream_long_lines, test_stream_rows_full, test_header_rewritten,
	  test_log_sorted_by_entry)
