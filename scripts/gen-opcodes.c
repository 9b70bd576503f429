/* gen-opcodes.c: writes the opcode table of docs/opcodes.md from ir/ops.h (`make docs`).
 *
 *   gen-opcodes LISTING... < docs/opcodes.md > new.md
 *
 * Copies its input and replaces the lines between the two marker lines (BEGIN and END below) by
 * one table row per ops.h row: name, unit, latency class, latency key, ndef, shape, flags, taken
 * from the row's own tokens (the O() macro stringifies them, so this program needs nothing but
 * ops.h and, for the configuration key of each OpLatKey, latkeys.h), and `seen`:
 * "yes" when the opcode occurs in one of the LISTING files that nvcc made. A listing counts as
 * nvcc's when its CUDA source is committed beside it (DIR/NAME.sm_XX.sass next to DIR/NAME.cu, the
 * convention of examples/ and tests/corpus/); hand-written listings are ignored. An opcode of such
 * a listing that has no row in ops.h is an error: the table must know every opcode nvcc emits.
 * tests/docs.sh checks that the committed docs/opcodes.md equals this program's output.
 * Exit status: 0, or 1 after a message on stderr.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BEGIN "<!-- generated from ir/ops.h by `make docs` (scripts/gen-opcodes.c): do not edit -->"
#define END "<!-- end of the generated table -->"

typedef struct Row {
	const char *name, *unit, *lat, *key, *ndef, *shape, *flags;
} Row;

static const Row rows[] = {
#define O(name, unit, lat, key, ndef, shape, flags) {#name, #unit, #lat, #key, #ndef, #shape, #flags},
#include "ops.h"
#undef O
};
enum { NRow = sizeof rows / sizeof rows[0] };

static unsigned char seen[NRow];

/* the doc's word for each OpUnit, OpLatClass and OpLatKey of ir/ir.h (a key's: its name in the
 * configuration) */
static const char *const unit_words[][2] = {
	{"UNone", "-"}, {"UInt", "int"}, {"UFma", "fma"}, {"UHalf", "half"}, {"UDouble", "fp64"},
	{"UMufu", "mufu"}, {"UConv", "conv"}, {"UTensor", "tensor"}, {"ULsu", "lsu"},
	{"UUniform", "uniform"}, {"UBranch", "branch"}, {"UMisc", "misc"},
};
static const char *const lat_words[][2] = {{"LFixed", "fixed"}, {"LVar", "var"}, {"LNone", "-"}};
static const char *const key_words[][2] = {
	{"LkNone", "-"}, {"LkMem", "memory"},
#define LK(name, key) {"Lk" #name, #key},
#include "latkeys.h"
#undef LK
};

static void
die(const char *fmt, const char *a, const char *b)
{
	fprintf(stderr, "gen-opcodes: error: ");
	fprintf(stderr, fmt, a, b);
	fputc('\n', stderr);
	exit(1);
}

static const char *
word(const char *const (*tab)[2], size_t n, const char *tok, const char *row)
{
	for (size_t k = 0; k < n; k++)
		if (strcmp(tab[k][0], tok) == 0)
			return tab[k][1];
	die("row %s: '%s' has no word in scripts/gen-opcodes.c", row, tok);
	return NULL;
}

/* an identifier without its prefix, lowercased, '-' where a capital follows a lower-case letter
 * or digit: ShPfx -> pfx, OFVarSm8x -> var-sm8x */
static void
put_ident(FILE *out, const char *s, size_t prefix, size_t n, const char *row)
{
	if (n <= prefix)
		die("row %s: identifier '%s' too short", row, s);
	for (size_t k = prefix; k < n; k++) {
		unsigned char c = (unsigned char)s[k], before = (unsigned char)s[k - 1];
		if (k > prefix && isupper(c) && (islower(before) || isdigit(before)))
			fputc('-', out);
		fputc(tolower(c), out);
	}
}

/* "OFLoad | OFShared" -> "load, shared"; "0" -> "" */
static void
put_flags(FILE *out, const Row *r)
{
	const char *p = r->flags;
	int first = 1;

	if (strcmp(p, "0") == 0)
		return;
	while (*p) {
		size_t n;
		while (*p == ' ' || *p == '|')
			p++;
		n = strcspn(p, " |");
		if (n == 0)
			break;
		if (strncmp(p, "OF", 2) != 0)
			die("row %s: flags '%s' are not OF* names joined by |", r->name, r->flags);
		if (!first)
			fputs(", ", out);
		put_ident(out, p, 2, n, r->name);
		first = 0;
		p += n;
	}
}

static void
put_table(FILE *out)
{
	fputs("| opcode | unit | latency | key | ndef | shape | flags | seen |\n", out);
	fputs("|---|---|---|---|---|---|---|---|\n", out);
	for (size_t k = 0; k < NRow; k++) {
		const Row *r = &rows[k];
		if (strncmp(r->shape, "Sh", 2) != 0)
			die("row %s: shape '%s' is not an Sh* name", r->name, r->shape);
		fprintf(out, "| %s | %s | %s | %s | %s | ", r->name,
		    word(unit_words, sizeof unit_words / sizeof unit_words[0], r->unit, r->name),
		    word(lat_words, sizeof lat_words / sizeof lat_words[0], r->lat, r->name),
		    word(key_words, sizeof key_words / sizeof key_words[0], r->key, r->name), r->ndef);
		put_ident(out, r->shape, 2, strlen(r->shape), r->name);
		fputs(" | ", out);
		put_flags(out, r);
		fprintf(out, " | %s |\n", seen[k] ? "yes" : "");
	}
}

/* is PATH DIR/NAME.sm_XX.sass (or DIR/NAME.sass) with DIR/NAME.cu beside it? */
static int
made_by_nvcc(const char *path)
{
	char cu[4096];
	size_t n = strlen(path);
	const char *dot;
	FILE *f;

	if (n < 5 || n + 4 >= sizeof cu || strcmp(path + n - 5, ".sass") != 0)
		return 0;
	memcpy(cu, path, n - 5);
	cu[n - 5] = 0;
	dot = strrchr(cu, '.');
	if (dot && strncmp(dot, ".sm_", 4) == 0 && !strchr(dot, '/'))
		cu[dot - cu] = 0;
	strcat(cu, ".cu");
	if (!(f = fopen(cu, "r")))
		return 0;
	fclose(f);
	return 1;
}

/* mark the opcodes of one nvdisasm listing: the word after `/ *ADDR* /` and an optional guard */
static void
scan_listing(const char *path)
{
	char line[8192];
	unsigned lineno = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		die("cannot read %s%s", path, "");
	while (fgets(line, sizeof line, f)) {
		char *p = line, name[64];
		size_t n;
		lineno++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (p[0] != '/' || p[1] != '*' || !isxdigit((unsigned char)p[2]))
			continue;
		p += 2;
		while (isxdigit((unsigned char)*p))
			p++;
		if (p[0] != '*' || p[1] != '/')
			continue;
		p += 2;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '@') {              /* guard: @P0, @!UP1, @PT */
			p += strcspn(p, " \t");
			while (*p == ' ' || *p == '\t')
				p++;
		}
		n = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
		if (n == 0 || n >= sizeof name || !isupper((unsigned char)*p))
			continue;
		memcpy(name, p, n);
		name[n] = 0;
		for (size_t k = 0; k <= NRow; k++) {
			if (k == NRow) {
				char where[4200];
				snprintf(where, sizeof where, "%s:%u", path, lineno);
				die("%s: opcode %s has no row in ir/ops.h", where, name);
			}
			if (strcmp(rows[k].name, name) == 0) {
				seen[k] = 1;
				break;
			}
		}
	}
	fclose(f);
}

int
main(int argc, char **argv)
{
	char line[8192];
	int state = 0;                    /* 0 before BEGIN, 1 inside, 2 after END */

	for (int k = 1; k < argc; k++)
		if (made_by_nvcc(argv[k]))
			scan_listing(argv[k]);
	while (fgets(line, sizeof line, stdin)) {
		size_t n = strlen(line);
		if (n && line[n - 1] == '\n')
			line[--n] = 0;
		if (state == 1) {
			if (strcmp(line, END) != 0)
				continue;
			put_table(stdout);
			state = 2;
		} else if (strcmp(line, BEGIN) == 0) {
			if (state != 0)
				die("a second '%s' line%s", BEGIN, "");
			state = 1;
		} else if (strcmp(line, END) == 0) {
			die("'%s' without '%s' before it", END, BEGIN);
		}
		puts(line);
	}
	if (state != 2)
		die("the input has no '%s' ... '%s' lines", BEGIN, END);
	return ferror(stdout) ? 1 : 0;
}
