/* check_regclass.c: the register-class table (ir/regs.h, regtab[] in ir/regclass.c) walked row
 * by row: every register's name parses back to it, the spelling ranges and their limits, the
 * constant registers, the unit numbering (dense, disjoint, as reg_unit gives it), the
 * source-only flag, the verifier's rejection of a V destination, and docs/ir.md's register
 * table, which must be this table.
 */
#define _POSIX_C_SOURCE 200809L
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "frontend.h"
#include "ir.h"
#include "passes.h"

/* check_cfg.c */
typedef struct Irt Irt;
Irt *irt_new(const char *text);
void irt_free(Irt *t);
Fn *irt_fn(Irt *t);
Diag *irt_diag(Irt *t);
const char *irt_errors(Irt *t);
int irt_cfg(Irt *t);

static const char *
root(void)
{
	const char *r = getenv("FIBER_ROOT");
	return r && *r ? r : ".";
}

/* every register number of every class: its name parses back to the same register */
START_TEST(test_names_parse_back)
{
	unsigned total = 0;

	for (unsigned c = RNone + 1; c < NRegClass; c++) {
		const RegClassInfo *rc = &regtab[c];
		for (unsigned k = 0; k < rc->nreg; k++) {
			char name[16];
			Reg r = REG(c, k), back = RNone;
			reg_name(r, name, sizeof name);
			if ((int)k == rc->zero)
				ck_assert_str_eq(name, rc->zname);
			else
				ck_assert_msg(strncmp(name, rc->prefix, strlen(rc->prefix)) == 0 &&
				              (unsigned)atoi(name + strlen(rc->prefix)) == k,
				              "%s is not %s%u", name, rc->prefix, k);
			ck_assert_msg(reg_parse(name, strlen(name), &back) == 0, "%s does not parse", name);
			ck_assert_msg(back == r, "%s parses to class %u number %u", name, RCLS(back),
			              RNUM(back));
			if ((int)k != rc->zero)
				ck_assert_uint_eq(reg_prefix(name, strlen(name)), c);
			total++;
		}
	}
	ck_assert_uint_eq(total, NumUnit);
}
END_TEST

/* one past the last number of each class is out of range (-2), with the range message of the
 * table; other words are not registers (-1) */
START_TEST(test_limits)
{
	static const char *const notreg[] = { "", "X3", "R", "R01", "RZZ", "U5", "SR_TID", "V-1",
	                                      "PTX", "UR", "B" };
	char name[32], range[32], want[64];
	Reg r;

	for (unsigned c = RNone + 1; c < NRegClass; c++) {
		const RegClassInfo *rc = &regtab[c];
		snprintf(name, sizeof name, "%s%u", rc->prefix, rc->nval);
		ck_assert_msg(reg_parse(name, strlen(name), &r) == -2, "%s is not out of range", name);
		snprintf(name, sizeof name, "%s%u", rc->prefix, rc->nval - 1u);
		ck_assert_int_eq(reg_parse(name, strlen(name), &r), 0);
		ck_assert_uint_eq(r, REG(c, rc->nval - 1u));
		snprintf(name, sizeof name, "%s12345", rc->prefix);
		ck_assert_int_eq(reg_parse(name, strlen(name), &r), -2);
		reg_range(c, range, sizeof range);
		if (rc->zero >= 0)
			snprintf(want, sizeof want, "%s0..%s%d, %s", rc->prefix, rc->prefix, rc->zero - 1,
			         rc->zname);
		else
			snprintf(want, sizeof want, "%s0..%s%u", rc->prefix, rc->prefix, rc->nreg - 1u);
		ck_assert_str_eq(range, want);
	}
	for (size_t k = 0; k < sizeof notreg / sizeof notreg[0]; k++)
		ck_assert_msg(reg_parse(notreg[k], strlen(notreg[k]), &r) == -1, "'%s' parses",
		              notreg[k]);
	/* the fixed constants and spot values the rest of the code relies on */
	ck_assert_int_eq(RegRZ, 255);
	ck_assert_int_eq(RegPT, 7);
	ck_assert_int_eq(RegURZ, 63);
	ck_assert_int_eq(RegUPT, 7);
	ck_assert_int_eq(NumB, 16);
	ck_assert_int_eq(NumV, 2048);
	ck_assert_int_eq(regtab[RB].zero, -1);
	ck_assert_int_eq(regtab[RV].zero, -1);
	ck_assert_str_eq(regtab[RUR].prefix, "UR");
	ck_assert_uint_eq(regtab[RV].flags & RCSrcOnly, RCSrcOnly);
}
END_TEST

/* units: each class's are unit .. unitend - 1, classes follow each other without a gap from 0
 * to NumUnit; reg_unit gives unit + number for a register with a value, -1 for a constant */
START_TEST(test_units_dense_disjoint)
{
	unsigned next = 0;
	static uint8_t seen[NumUnit];

	memset(seen, 0, sizeof seen);
	for (unsigned c = RNone + 1; c < NRegClass; c++) {
		const RegClassInfo *rc = &regtab[c];
		ck_assert_uint_eq(rc->unit, next);
		ck_assert_uint_eq(rc->unitend, rc->unit + rc->nreg);
		ck_assert_uint_eq(rc->nval, rc->zero >= 0 ? (unsigned)rc->zero : rc->nreg);
		ck_assert_msg(rc->zero < 0 || rc->zero == rc->nreg - 1, "%s: the constant register is "
		              "not the last number", rc->prefix);
		ck_assert_msg(rc->bits == 1 || rc->bits == 32, "%s: %u bits", rc->prefix, rc->bits);
		ck_assert_msg(rc->scope == ScLane || rc->scope == ScUniform, "%s scope", rc->prefix);
		for (unsigned k = 0; k < rc->nreg; k++) {
			int u = reg_unit(REG(c, k));
			ck_assert_int_eq(reg_isconst(REG(c, k)), (int)k == rc->zero);
			if ((int)k == rc->zero) {
				ck_assert_int_eq(u, -1);
				continue;
			}
			ck_assert_int_eq(u, (int)(rc->unit + k));
			ck_assert_msg(!seen[u], "unit %d twice", u);
			seen[u] = 1;
		}
		next = rc->unitend;
	}
	ck_assert_uint_eq(next, NumUnit);
	ck_assert_uint_eq(NumUnit, 2400);
	ck_assert_uint_eq(NumArchUnit, regtab[RV].unit);
	ck_assert_int_eq(reg_unit(REG(RNone, 0)), -1);
	ck_assert_int_eq(reg_isconst(REG(RNone, 0)), 0);
	for (unsigned c = NRegClass; c < 16; c++)
		ck_assert_int_eq(reg_unit(REG(c, 0)), -1);
	ck_assert_int_eq(reg_unit(REG(RR, 0)), UnitR);
	ck_assert_int_eq(reg_unit(REG(RP, 0)), UnitP);
	ck_assert_int_eq(reg_unit(REG(RUR, 0)), UnitUR);
	ck_assert_int_eq(reg_unit(REG(RUP, 0)), UnitUP);
	ck_assert_int_eq(reg_unit(REG(RB, 0)), UnitB);
	ck_assert_int_eq(reg_unit(REG(RV, 2047)), NumUnit - 1);
}
END_TEST

START_TEST(test_source_only)
{
	for (unsigned c = RNone + 1; c < NRegClass; c++)
		ck_assert_int_eq(reg_writable(REG(c, 0)), !(regtab[c].flags & RCSrcOnly));
	ck_assert_int_eq(reg_writable(REG(RV, 5)), 0);
	ck_assert_int_eq(reg_writable(REG(RR, 5)), 1);
}
END_TEST

/* a V register may be read by any operand; written, the verifier rejects it at its spelling */
START_TEST(test_verify_v_destination)
{
	Irt *t = irt_new("IADD3 R2, V700, R3, RZ ;\n"
	                 "FADD R4, R2, V2047 ;\n"
	                 "STG.E [V8.64], V12 ;\n"
	                 "EXIT ;\n");

	ck_assert_int_eq(irt_cfg(t), 0);
	ck_assert_msg(verify_fn(irt_fn(t), irt_diag(t)) == 0, "%s", irt_errors(t));
	ck_assert_int_eq(ssa_build(irt_fn(t), irt_diag(t)), 0);
	ck_assert_msg(verify_fn(irt_fn(t), irt_diag(t)) == 0, "%s", irt_errors(t));
	irt_free(t);

	t = irt_new("MOV R2, R3 ;\n"
	            "IADD3 V700, R2, R3, RZ ;\n"
	            "EXIT ;\n");
	ck_assert_int_eq(verify_fn(irt_fn(t), irt_diag(t)), -1);       /* before cfg_build too */
	ck_assert_msg(strstr(irt_errors(t), "test.sass:4:7: error: verifier: 'V700' is a destination,"
	                     " but V registers are source operands only"), "%s", irt_errors(t));
	ck_assert_int_eq(irt_cfg(t), 0);
	ck_assert_int_eq(verify_fn(irt_fn(t), irt_diag(t)), -1);
	irt_free(t);
}
END_TEST

/* the parser spells its range errors from the table, and a tuple running past V2047 is an
 * error of fiberc's checks like one running into RZ */
START_TEST(test_parser_errors)
{
	static const struct { const char *ins, *msg; } bad[] = {
		{ "IADD3 R2, R255, R3, RZ ;", "3:11: error: register 'R255' out of range (R0..R254, RZ)" },
		{ "FADD R2, V2048, R3 ;", "3:10: error: register 'V2048' out of range (V0..V2047)" },
		{ "ISETP.GE.AND P7, PT, R0, R1, PT ;", "register 'P7' out of range (P0..P6, PT)" },
		{ "UMOV UR63, 0x1 ;", "register 'UR63' out of range (UR0..UR62, URZ)" },
		{ "BSSY B16, `(.L_1) ;", "register 'B16' out of range (B0..B15)" },
		{ "IMAD.WIDE R6, R0, 0x4, V2047 ;",
		  "3:24: error: 'V2047' begins a 2-register operand, which runs past V2047" },
		{ "IMAD.WIDE R6, R0, 0x4, R254 ;",
		  "3:24: error: 'R254' begins a 2-register operand, which runs into RZ" },
	};

	for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
		char text[256], *err = NULL;
		size_t nerr = 0;
		FILE *ef = open_memstream(&err, &nerr);
		Src *src;
		Diag d;
		Module *m;
		snprintf(text, sizeof text, "\t.section\t.text.kern,\"ax\",@progbits\nkern:\n%s\n"
		         "EXIT ;\n.L_1:\n", bad[k].ins);
		src = src_new("test.sass", text, strlen(text));
		diag_init(&d, src, ef);
		m = sass_parse(src, &d);
		if (m && !d.nerr)
			sass_check(m, &d);      /* fiberc's checks after the parse: tuples */
		fflush(ef);
		ck_assert_msg(d.nerr > 0 && err && strstr(err, bad[k].msg), "'%s': want '%s', got:\n%s",
		              bad[k].ins, bad[k].msg, err ? err : "");
		module_free(m);
		fclose(ef);
		free(err);
		src_free(src);
	}
}
END_TEST

/* docs/ir.md's register table has exactly one row per class, each this table's row */
START_TEST(test_docs_table)
{
	char path[1024], *doc, row[256], cst[32], *p;
	FILE *f;
	long n;
	unsigned rows = 0;

	snprintf(path, sizeof path, "%s/docs/ir.md", root());
	ck_assert_msg((f = fopen(path, "rb")) != NULL, "cannot open %s", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	doc = calloc(1, (size_t)n + 1);
	ck_assert_uint_eq(fread(doc, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	ck_assert_msg(strstr(doc, "| class | spelling | numbers | constant | first unit | units | bits "
	                     "| scope | source only |\n"), "docs/ir.md has no register table");
	for (unsigned c = RNone + 1; c < NRegClass; c++) {
		const RegClassInfo *rc = &regtab[c];
		if (rc->zero >= 0)
			snprintf(cst, sizeof cst, "`%s` (%d)", rc->zname, rc->zero);
		else
			snprintf(cst, sizeof cst, "none");
		snprintf(row, sizeof row, "\n| %s | `%s0`..`%s%u` | %u | %s | %u | %u | %u | %s | %s |\n",
		         rc->prefix, rc->prefix, rc->prefix, rc->nval - 1u, rc->nreg, cst, rc->unit,
		         rc->unitend - rc->unit, rc->bits, rc->scope == ScLane ? "lane" : "uniform",
		         rc->flags & RCSrcOnly ? "yes" : "no");
		ck_assert_msg(strstr(doc, row), "docs/ir.md has no row%s", row);
	}
	/* and no other row: every line of the table is one of those */
	p = strstr(doc, "| class | spelling |");
	p = strchr(strchr(p, '\n') + 1, '\n') + 1;   /* past the |---| line */
	while (*p == '|') {
		rows++;
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	ck_assert_uint_eq(rows, NRegClass - 1);
	free(doc);
}
END_TEST

Suite *
regclass_suite(void)
{
	Suite *s = suite_create("regclass");
	TCase *tab = tcase_create("table");
	TCase *use = tcase_create("use");

	tcase_add_test(tab, test_names_parse_back);
	tcase_add_test(tab, test_limits);
	tcase_add_test(tab, test_units_dense_disjoint);
	tcase_add_test(tab, test_source_only);
	tcase_add_test(use, test_verify_v_destination);
	tcase_add_test(use, test_parser_errors);
	tcase_add_test(use, test_docs_table);
	suite_add_tcase(s, tab);
	suite_add_tcase(s, use);
	return s;
}
