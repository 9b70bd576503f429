/* regclass.c: the register-class table (regtab[], one row per class of regs.h) and the register
 * spelling built on it: reg_name for the printer and diagnostics, reg_parse for the front end,
 * reg_range for "out of range" messages.
 */
#include "ir.h"

#include <string.h>

const RegClassInfo regtab[NRegClass] = {
	[RNone] = { "", "", 0, -1, 0, 0, 0, 0, 0, 0 },
#define RC(c, pre, nreg, zero, zname, unit, bits, scope, flags) \
	[R##c] = { pre, zname, nreg, zero, RegLimit##c, unit, (unit) + (nreg), bits, scope, flags },
#include "regs.h"
#undef RC
};

void
reg_name(Reg r, char *buf, size_t n)
{
	unsigned c = RCLS(r), k = RNUM(r);

	if (c == RNone || c >= NRegClass)
		snprintf(buf, n, "?");
	else if ((int)k == regtab[c].zero)
		snprintf(buf, n, "%s", regtab[c].zname);
	else
		snprintf(buf, n, "%s%u", regtab[c].prefix, k);
}

unsigned
reg_prefix(const char *s, size_t n)
{
	unsigned best = RNone;
	size_t len = 0;

	for (unsigned c = RNone + 1; c < NRegClass; c++) {
		size_t p = strlen(regtab[c].prefix);
		if (p > len && p <= n && memcmp(s, regtab[c].prefix, p) == 0) {
			best = c;
			len = p;
		}
	}
	return best;
}

/* parse a decimal register number of at most 4 digits; -1 if not a number, -2 if longer */
static int
regnum(const char *s, size_t n, unsigned *out)
{
	unsigned v = 0;

	if (n == 0 || n > 4)
		return n > 4 ? -2 : -1;
	if (n > 1 && s[0] == '0')
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	*out = v;
	return 0;
}

int
reg_parse(const char *s, size_t n, Reg *out)
{
	unsigned c, k;
	size_t p;
	int rc;

	for (c = RNone + 1; c < NRegClass; c++)
		if (regtab[c].zero >= 0 && strlen(regtab[c].zname) == n &&
		    memcmp(s, regtab[c].zname, n) == 0) {
			*out = REG(c, (unsigned)regtab[c].zero);
			return 0;
		}
	c = reg_prefix(s, n);
	if (c == RNone)
		return -1;
	p = strlen(regtab[c].prefix);
	rc = regnum(s + p, n - p, &k);
	if (rc == -1)
		return -1;
	if (rc == -2 || k >= regtab[c].nval)
		return -2;
	*out = REG(c, k);
	return 0;
}

int
reg_range(unsigned cls, char *buf, size_t n)
{
	const RegClassInfo *c;

	if (cls == RNone || cls >= NRegClass)
		return snprintf(buf, n, "?");
	c = &regtab[cls];
	if (c->zero >= 0)
		return snprintf(buf, n, "%s0..%s%u, %s", c->prefix, c->prefix, c->nval - 1u, c->zname);
	return snprintf(buf, n, "%s0..%s%u", c->prefix, c->prefix, c->nval - 1u);
}

int
reg_writable(Reg r)
{
	return RCLS(r) < NRegClass && !(regtab[RCLS(r)].flags & RCSrcOnly);
}
