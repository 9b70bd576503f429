/* json.h: a small JSON reader (json.c) for the files fibersim writes: the statistics of
 * fiberWriteStatsJSON, read back by `fibersim compare`, `annotate` and the tests. The whole text
 * is parsed into a tree of JVal; numbers are doubles. Private to the tree: not installed.
 */
#ifndef FIBER_JSON_H
#define FIBER_JSON_H

#include <stddef.h>

typedef struct JVal JVal;

enum JType { JNull, JBool, JNum, JStr, JArr, JObj };

struct JVal {
	int type;                  /* JType */
	char *key;                 /* member name, in an object; NULL elsewhere */
	double num;                /* JNum; JBool: 0 or 1 */
	char *str;                 /* JStr, NUL-terminated (a \u0000 escape ends it early) */
	JVal *kid;                 /* JArr, JObj: the elements / members, in order */
	size_t n;
};

/* the tree of text[0..len), or NULL with "line L, column C: message" in err */
JVal *json_parse(const char *text, size_t len, char *err, size_t errn);
void json_free(JVal *v);
/* obj's member named key (the first one), or NULL (also when obj is not an object) */
const JVal *json_get(const JVal *obj, const char *key);
/* obj's member at a dotted path ("occupancy.ctas"), or NULL */
const JVal *json_path(const JVal *obj, const char *path);
/* a number (JNum), or dflt for anything else and NULL */
double json_num(const JVal *v, double dflt);
/* a string (JStr), or NULL */
const char *json_str(const JVal *v);

#endif /* FIBER_JSON_H */
