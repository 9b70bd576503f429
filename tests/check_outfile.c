/* check_outfile.c: runtime/outfile.c, the writer of every output file. A commit replaces the
 * target whole and keeps its permissions and the links to it; an abort, a failed flush and the
 * signal clean-up leave the target exactly as it was and remove the temporary file; a device
 * (/dev/null) is written in place, never renamed over or removed.
 */
#define _DEFAULT_SOURCE
#include "outfile.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

static char dir[64];

static void
setup(void)
{
	snprintf(dir, sizeof dir, "/tmp/fiber-outfile-XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void
teardown(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char p[512];

	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) {
			snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
			unlink(p);
		}
	if (d)
		closedir(d);
	rmdir(dir);
}

static void
put(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	ck_assert_ptr_nonnull(f);
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

/* the file's text (up to 255 bytes), "" if it cannot be read */
static const char *
get(const char *path)
{
	static char buf[256];
	FILE *f = fopen(path, "r");
	size_t n = 0;

	buf[0] = 0;
	if (f) {
		n = fread(buf, 1, sizeof buf - 1, f);
		fclose(f);
	}
	buf[n] = 0;
	return buf;
}

/* entries of dir */
static int
entries(void)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	while (d && (e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	if (d)
		closedir(d);
	return n;
}

START_TEST(test_outfile_commit_replaces)
{
	char p[128];
	OutFile o;
	struct stat st;

	snprintf(p, sizeof p, "%s/out.txt", dir);
	put(p, "old");
	chmod(p, 0640);
	ck_assert_int_eq(outfile_open(&o, p), 0);
	ck_assert_ptr_nonnull(o.tmp);
	fputs("new", o.fp);
	ck_assert_str_eq(get(p), "old");           /* nothing visible before the commit */
	ck_assert_int_eq(entries(), 2);
	ck_assert_int_eq(outfile_commit(&o), 0);
	ck_assert_str_eq(get(p), "new");
	ck_assert_int_eq(entries(), 1);
	ck_assert_int_eq(stat(p, &st), 0);
	ck_assert_int_eq(st.st_mode & 0777, 0640);
}
END_TEST

START_TEST(test_outfile_abort_keeps)
{
	char p[128];
	OutFile o;

	snprintf(p, sizeof p, "%s/out.txt", dir);
	put(p, "old");
	ck_assert_int_eq(outfile_open(&o, p), 0);
	fputs("half", o.fp);
	outfile_abort(&o);
	ck_assert_str_eq(get(p), "old");
	ck_assert_int_eq(entries(), 1);
	outfile_abort(&o);                         /* harmless twice */
	snprintf(p, sizeof p, "%s/new.txt", dir);  /* a file that did not exist stays absent */
	ck_assert_int_eq(outfile_open(&o, p), 0);
	outfile_abort(&o);
	ck_assert_int_eq(access(p, F_OK), -1);
	ck_assert_int_eq(entries(), 1);
}
END_TEST

START_TEST(test_outfile_link_kept)
{
	char p[128], l[128], target[128];
	OutFile o;
	ssize_t n;

	snprintf(p, sizeof p, "%s/real.txt", dir);
	snprintf(l, sizeof l, "%s/link.txt", dir);
	put(p, "old");
	ck_assert_int_eq(symlink("real.txt", l), 0);
	ck_assert_int_eq(outfile_open(&o, l), 0);
	fputs("new", o.fp);
	ck_assert_int_eq(outfile_commit(&o), 0);
	n = readlink(l, target, sizeof target - 1);
	ck_assert_int_gt(n, 0);
	target[n] = 0;
	ck_assert_str_eq(target, "real.txt");
	ck_assert_str_eq(get(p), "new");
}
END_TEST

/* what a signal handler does mid-write: the temporary file goes, the target stays */
START_TEST(test_outfile_signal_cleanup)
{
	char p[128], q[128];
	OutFile a, b;

	snprintf(p, sizeof p, "%s/a.txt", dir);
	snprintf(q, sizeof q, "%s/b.txt", dir);
	put(p, "old");
	ck_assert_int_eq(outfile_open(&a, p), 0);
	ck_assert_int_eq(outfile_open(&b, q), 0);
	fputs("half", a.fp);
	ck_assert_int_eq(entries(), 3);
	outfile_cleanup_signal();
	ck_assert_int_eq(entries(), 1);
	ck_assert_str_eq(get(p), "old");
	outfile_abort(&a);
	outfile_abort(&b);
	ck_assert_int_eq(entries(), 1);
}
END_TEST

/* devices made here with mknod (root; never the machine's /dev nodes, which a regression could
 * remove); a FIFO where mknod of devices is not permitted */
START_TEST(test_outfile_device_in_place)
{
	char p[128], q[128];
	OutFile o;
	struct stat st;

	snprintf(p, sizeof p, "%s/null", dir);
	snprintf(q, sizeof q, "%s/full", dir);
	if (mknod(p, S_IFCHR | 0666, makedev(1, 3)) == 0 && mknod(q, S_IFCHR | 0666, makedev(1, 7)) == 0) {
		ck_assert_int_eq(outfile_open(&o, p), 0);
		ck_assert_ptr_null(o.tmp);
		fputs("x", o.fp);
		ck_assert_int_eq(outfile_commit(&o), 0);
		ck_assert_int_eq(lstat(p, &st), 0);
		ck_assert(S_ISCHR(st.st_mode));
		ck_assert_int_eq(outfile_open(&o, q), 0);       /* a write error: reported, not removed */
		fputs("x", o.fp);
		ck_assert_int_eq(outfile_commit(&o), -1);
		ck_assert_int_eq(errno, ENOSPC);
		ck_assert_int_eq(lstat(q, &st), 0);
		ck_assert(S_ISCHR(st.st_mode));
		outfile_abort(&o);
		ck_assert_int_eq(lstat(q, &st), 0);
	} else {
		unlink(p);
		ck_assert_int_eq(mkfifo(p, 0666), 0);
		int rd = open(p, O_RDWR);                       /* a reader, so that opening does not wait */
		ck_assert_int_ge(rd, 0);
		ck_assert_int_eq(outfile_open(&o, p), 0);
		ck_assert_ptr_null(o.tmp);
		outfile_abort(&o);
		close(rd);
		ck_assert_int_eq(lstat(p, &st), 0);
		ck_assert(S_ISFIFO(st.st_mode));
	}
	ck_assert_int_eq(outfile_open(&o, "/dev/stdout"), 0);  /* under /dev/: in place */
	ck_assert_ptr_null(o.tmp);
	ck_assert_int_eq(outfile_commit(&o), 0);
}
END_TEST

START_TEST(test_outfile_errors)
{
	OutFile o;

	ck_assert_int_eq(outfile_open(&o, "/nonexistent/dir/x"), -1);
	ck_assert_int_eq(errno, ENOENT);
	ck_assert_int_eq(outfile_open(&o, dir), -1);   /* a folder */
	ck_assert_int_eq(errno, EISDIR);
	ck_assert_int_eq(outfile_open(&o, ""), -1);
}
END_TEST

Suite *
outfile_suite(void)
{
	Suite *s = suite_create("outfile");
	TCase *tc = tcase_create("outfile");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, test_outfile_commit_replaces);
	tcase_add_test(tc, test_outfile_abort_keeps);
	tcase_add_test(tc, test_outfile_link_kept);
	tcase_add_test(tc, test_outfile_signal_cleanup);
	tcase_add_test(tc, test_outfile_device_in_place);
	tcase_add_test(tc, test_outfile_errors);
	suite_add_tcase(s, tc);
	return s;
}
