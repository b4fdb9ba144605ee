/* gpuwise run's accounting log in SQLite (cli/accounting.h).
 *
 * One file per writer, never writable by anyone else: the pool folder's
 * owner (the caller in a private folder, root in a shared one) writes
 * accounting.sqlite, every other user accounting-<uid>.sqlite, all mode
 * 0644 (SQLite gives the -wal and -shm files the database's mode). So the
 * kernel attributes each row: report counts the rows of
 * accounting-<uid>.sqlite for that uid whatever their user column says,
 * and reads a file only when its owner is the one it names and nobody
 * else may write it. A file someone else planted under our name is
 * refused, never written. Every connection is defensive
 * (SQLITE_DBCONFIG_DEFENSIVE, trusted_schema off, no schema object but
 * the jobs table and its index), waits for a lock at most ACCT_BUSY_MS and
 * runs a statement at most ACCT_STATEMENT_MS: a broken or locked log never
 * holds a job up for longer, and the caller is told when a row was lost. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "accounting.h"
#include "commands.h"
#include "output.h"

#define DB_NAME "accounting.sqlite"

#ifdef GW_HAVE_SQLITE
#include <sqlite3.h>

bool acct_available(void)
{
	return true;
}

static const char schema[] =
	"CREATE TABLE IF NOT EXISTS jobs ("
	" job INTEGER, uid INTEGER, user TEXT, name TEXT, command TEXT,"
	" gpus INTEGER, uuids TEXT, queued REAL, started REAL, ended REAL,"
	" exit_status INTEGER, gpu_seconds REAL, idle_gpu_seconds REAL,"
	" mean_util REAL, max_memory_bytes INTEGER, energy_j REAL, ended_by TEXT, slurm_job TEXT);"
	"CREATE INDEX IF NOT EXISTS jobs_ended ON jobs(ended);";

/* A log made before a column existed gets it (NULL in old rows); two jobs
 * adding it at once: the second's "duplicate column" is fine. */
static void add_column(sqlite3 *db, const char *name)
{
	char sql[128];
	sqlite3_stmt *st;

	snprintf(sql, sizeof(sql), "SELECT %s FROM jobs LIMIT 0", name);
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) == SQLITE_OK) {
		sqlite3_finalize(st);
		return;
	}
	snprintf(sql, sizeof(sql), "ALTER TABLE jobs ADD COLUMN %s TEXT", name);
	sqlite3_exec(db, sql, NULL, NULL, NULL);
}

/* The longest a job's row may wait for a lock, and run. */
#define ACCT_BUSY_MS 1000
#define ACCT_STATEMENT_MS 2000

/* The file uid writes in a folder owned by dir_owner. */
static void db_name(char *buf, size_t n, unsigned uid, unsigned dir_owner)
{
	if (uid == dir_owner)
		snprintf(buf, n, "%s", DB_NAME);
	else
		snprintf(buf, n, "accounting-%u.sqlite", uid);
}

/* Why the open file fd (named name) may not be trusted as uid's own log
 * (NULL: it may). */
static const char *untrusted(int fd, unsigned uid)
{
	struct stat st;

	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_nlink != 1)
		return _("it is not a plain file with one link");
	if (st.st_uid != uid)
		return _("it belongs to another user");
	if (st.st_mode & 022)
		return _("others may write it");
	return NULL;
}

/* Create dir/name for us, mode 0644 past the umask, or check the one that
 * is there: ours, a plain file, written by nobody else. */
static int own_file(int dirfd, const char *dir, const char *name, bool create, char *err, size_t errsz)
{
	int fd = create ? openat(dirfd, name, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644) : -1;
	const char *why;

	if (fd >= 0) {
		if (fchmod(fd, 0644) != 0) {
			/* the umask's narrower mode stays */
		}
		close(fd);
		return 0;
	}
	if (create && errno != EEXIST)
		goto failed;
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT && !create)
		return 0;
	if (fd < 0)
		goto failed;
	why = untrusted(fd, (unsigned)getuid());
	close(fd);
	if (!why)
		return 0;
	snprintf(err, errsz, _("%s/%s: %s: refused (its owner or root must remove it)"), dir, name, why);
	return -1;
failed:
	snprintf(err, errsz, "%s/%s: %s", dir, name, strerror(errno));
	return -1;
}

/* Stops a statement that runs past its deadline (a monotonic time). */
static int over_time(void *deadline)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9 > *(double *)deadline;
}

static double deadline_in(int ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9 + ms / 1000.0;
}

/* Nothing in the schema but what gpuwise made: a trigger or a view would
 * run someone's SQL in our connection. NULL, or what was found. */
static bool schema_ok(sqlite3 *db, char *what, size_t n)
{
	sqlite3_stmt *st;
	bool ok = true;

	if (sqlite3_prepare_v2(db, "SELECT type, name FROM sqlite_schema", -1, &st, NULL) != SQLITE_OK) {
		snprintf(what, n, "%s", sqlite3_errmsg(db));
		return false;
	}
	while (ok && sqlite3_step(st) == SQLITE_ROW) {
		const char *type = (const char *)sqlite3_column_text(st, 0), *name = (const char *)sqlite3_column_text(st, 1);

		if (!type || !name || !((!strcmp(type, "table") && !strcmp(name, "jobs")) ||
					(!strcmp(type, "index") && !strcmp(name, "jobs_ended")))) {
			snprintf(what, n, _("unexpected schema object: %s %s"), type ? type : "?", name ? name : "?");
			ok = false;
		}
	}
	sqlite3_finalize(st);
	return ok;
}

/* Defensive from the first statement on (the caller's deadline bounds
 * every statement through the progress handler). */
static void harden(sqlite3 *db, double *deadline)
{
	sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
#ifdef SQLITE_DBCONFIG_TRUSTED_SCHEMA
	sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
#endif
	sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
	sqlite3_busy_timeout(db, ACCT_BUSY_MS);
	sqlite3_progress_handler(db, 1000, over_time, deadline);
	sqlite3_exec(db, "PRAGMA trusted_schema=OFF", NULL, NULL, NULL);
}

static void fail_db(sqlite3 **db, const char *path, char *err, size_t errsz)
{
	snprintf(err, errsz, "%s: %s", path, *db ? sqlite3_errmsg(*db) : _("cannot open"));
	sqlite3_close(*db);
	*db = NULL;
}

/* Our own log in the pool folder, for writing. */
static int open_own(const char *dir, sqlite3 **db, double *deadline, char *err, size_t errsz)
{
	char name[64], path[4096], side[80], what[256];
	struct stat st;
	int dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC), rc = 0;

	*db = NULL;
	if (dirfd < 0 || fstat(dirfd, &st) != 0) {
		snprintf(err, errsz, "%s: %s", dir, strerror(errno));
		if (dirfd >= 0)
			close(dirfd);
		return -1;
	}
	db_name(name, sizeof(name), (unsigned)getuid(), (unsigned)st.st_uid);
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	rc = own_file(dirfd, dir, name, true, err, errsz);
	for (int i = 0; rc == 0 && i < 2; i++) {
		snprintf(side, sizeof(side), "%s%s", name, i ? "-shm" : "-wal");
		rc = own_file(dirfd, dir, side, false, err, errsz);
	}
	close(dirfd);
	if (rc < 0)
		return -1;
	if (sqlite3_open_v2(path, db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW, NULL) != SQLITE_OK) {
		fail_db(db, path, err, errsz);
		return -1;
	}
	harden(*db, deadline);
	/* WAL with NORMAL sync: no fsync per job (a row lost in a power cut
	 * costs little). Nor a checkpoint (with its fsyncs) each time a job's
	 * row is written and the last connection closes (harden): the -wal
	 * file stays, and acct_record folds it back now and then
	 * (wal_frames). A checkpoint per job was most of gpuwise run's
	 * overhead (docs/benchmarks.md). */
	sqlite3_exec(*db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", NULL, NULL, NULL);
	if (!schema_ok(*db, what, sizeof(what))) {
		snprintf(err, errsz, _("%s: %s: refused"), path, what);
		sqlite3_close(*db);
		*db = NULL;
		return -1;
	}
	if (sqlite3_exec(*db, schema, NULL, NULL, NULL) != SQLITE_OK) {
		fail_db(db, path, err, errsz);
		return -1;
	}
	add_column(*db, "ended_by");
	add_column(*db, "slurm_job");
	return 0;
}

/* Every connection here is the only one for a moment, and SQLite then
 * rebuilds the WAL's index from the whole -wal file when it opens: a cost
 * that grows with the file. Its automatic checkpoint does not help here:
 * the rebuilt index no longer knows which frames were copied back, so the
 * file is never restarted and grows without end (after a few hundred jobs
 * each gpuwise run spent milliseconds reading it and copying it back on
 * every commit). So: no automatic checkpoint, and once the log holds
 * WAL_FOLD_FRAMES frames (about 60 jobs, 0.5 MB) a TRUNCATE checkpoint
 * empties it, without waiting for anyone (busy: next time). */
#define WAL_FOLD_FRAMES 128

static int wal_frames(void *frames, sqlite3 *db, const char *name, int n)
{
	(void)db;
	(void)name;
	*(int *)frames = n;
	return SQLITE_OK;
}

static void wal_fold(sqlite3 *db, int frames)
{
	if (frames < WAL_FOLD_FRAMES)
		return;
	sqlite3_busy_timeout(db, 0);
	sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
}

static int record_row(const char *pool_dir, const struct acct_job *j, char *err, size_t errsz)
{
	static const char sql[] =
		"INSERT INTO jobs (job, uid, user, name, command, gpus, uuids, queued, started, ended, exit_status,"
		" gpu_seconds, idle_gpu_seconds, mean_util, max_memory_bytes, energy_j, ended_by, slurm_job)"
		" VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
	sqlite3 *db;
	sqlite3_stmt *st;
	int rc, i = 1, frames = 0;
	double deadline = deadline_in(ACCT_STATEMENT_MS);

	if (open_own(pool_dir, &db, &deadline, err, errsz) != 0)
		return -1;
	sqlite3_wal_hook(db, wal_frames, &frames);   /* replaces the automatic checkpoint */
	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) {
		snprintf(err, errsz, _("accounting log: %s"), sqlite3_errmsg(db));
		sqlite3_close(db);
		return -1;
	}
	sqlite3_bind_int64(st, i++, (sqlite3_int64)j->id);
	sqlite3_bind_int64(st, i++, j->uid);
	sqlite3_bind_text(st, i++, j->user, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, i++, j->name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, i++, j->command, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, i++, j->gpus);
	sqlite3_bind_text(st, i++, j->uuids, -1, SQLITE_TRANSIENT);
	sqlite3_bind_double(st, i++, j->queued);
	sqlite3_bind_double(st, i++, j->started);
	sqlite3_bind_double(st, i++, j->ended);
	if (j->exit_status != ACCT_EXIT_UNKNOWN)
		sqlite3_bind_int(st, i++, j->exit_status);
	else
		sqlite3_bind_null(st, i++);
	sqlite3_bind_double(st, i++, j->gpu_seconds);
	sqlite3_bind_double(st, i++, j->idle_gpu_seconds);
	if (j->mean_util >= 0)
		sqlite3_bind_double(st, i++, j->mean_util);
	else
		sqlite3_bind_null(st, i++);
	sqlite3_bind_int64(st, i++, (sqlite3_int64)j->max_memory);
	if (j->energy_j >= 0)
		sqlite3_bind_double(st, i++, j->energy_j);
	else
		sqlite3_bind_null(st, i++);
	sqlite3_bind_text(st, i++, j->ended_by, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, i++, j->slurm_job, -1, SQLITE_STATIC);
	deadline = deadline_in(ACCT_STATEMENT_MS);
	rc = sqlite3_step(st);
	if (rc != SQLITE_DONE)
		snprintf(err, errsz, _("accounting log: %s"), sqlite3_errmsg(db));
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		wal_fold(db, frames);
	sqlite3_close(db);
	return rc == SQLITE_DONE ? 0 : -1;
}

/* The row is written by a thread of its own, waited for at most
 * ACCT_WRITE_MAX_MS: SQLite's own retries on a lock in the -shm file (which
 * anyone who may read the log can hold) are not bounded by its busy
 * timeout. Past it the caller goes on (and soon exits, which ends the
 * thread: an unfinished transaction is never committed). The thread gets
 * copies of everything it reads, never freed when it is left behind. */
#define ACCT_WRITE_MAX_MS 3000

struct row_job {
	struct acct_job j;
	char *dir, *user, *name, *command, *uuids, *ended_by, *slurm_job;
	char err[1024];
	int rc;
	bool done;
	pthread_mutex_t mu;
	pthread_cond_t cv;
};

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

static void row_free(struct row_job *r)
{
	free(r->dir);
	free(r->user);
	free(r->name);
	free(r->command);
	free(r->uuids);
	free(r->ended_by);
	free(r->slurm_job);
	pthread_mutex_destroy(&r->mu);
	pthread_cond_destroy(&r->cv);
	free(r);
}

static void *row_thread(void *arg)
{
	struct row_job *r = arg;
	int rc = record_row(r->dir, &r->j, r->err, sizeof(r->err));

	pthread_mutex_lock(&r->mu);
	r->rc = rc;
	r->done = true;
	pthread_cond_signal(&r->cv);
	pthread_mutex_unlock(&r->mu);
	return NULL;
}

int acct_record(const char *pool_dir, const struct acct_job *j, char *err, size_t errsz)
{
	struct row_job *r = calloc(1, sizeof(*r));
	struct timespec until;
	pthread_t t;
	int rc;

	if (!r)
		return record_row(pool_dir, j, err, errsz);
	r->j = *j;
	r->j.user = r->user = dup_or_null(j->user);
	r->j.name = r->name = dup_or_null(j->name);
	r->j.command = r->command = dup_or_null(j->command);
	r->j.uuids = r->uuids = dup_or_null(j->uuids);
	r->j.ended_by = r->ended_by = dup_or_null(j->ended_by);
	r->j.slurm_job = r->slurm_job = dup_or_null(j->slurm_job);
	r->dir = dup_or_null(pool_dir);
	pthread_mutex_init(&r->mu, NULL);
	pthread_cond_init(&r->cv, NULL);
	if (!r->dir || pthread_create(&t, NULL, row_thread, r) != 0) {
		rc = record_row(pool_dir, j, err, errsz);
		row_free(r);
		return rc;
	}
	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_sec += ACCT_WRITE_MAX_MS / 1000;
	until.tv_nsec += (ACCT_WRITE_MAX_MS % 1000) * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&r->mu);
	while (!r->done && pthread_cond_timedwait(&r->cv, &r->mu, &until) == 0)
		;
	if (!r->done) {
		pthread_mutex_unlock(&r->mu);
		pthread_detach(t);
		snprintf(err, errsz, _("%s: still locked or busy after %.0f s: given up"), pool_dir,
			 ACCT_WRITE_MAX_MS / 1000.0);
		return -1;
	}
	pthread_mutex_unlock(&r->mu);
	pthread_join(t, NULL);
	rc = r->rc;
	if (rc < 0)
		snprintf(err, errsz, "%s", r->err);
	row_free(r);
	return rc;
}

/* One user's figures added to the summary (files are summed per user). */
static void add_user(struct acct_summary *out, const struct acct_user *v)
{
	struct acct_user *u = NULL, *grown;

	for (size_t i = 0; i < out->nusers && !u; i++)
		if (!strcmp(out->users[i].user, v->user))
			u = &out->users[i];
	if (!u) {
		if (!(grown = realloc(out->users, (out->nusers + 1) * sizeof(*u))))
			return;
		out->users = grown;
		u = &out->users[out->nusers++];
		*u = (struct acct_user){ 0 };
		snprintf(u->user, sizeof(u->user), "%s", v->user);
	}
	u->jobs += v->jobs;
	u->gpu_hours += v->gpu_hours;
	u->idle_gpu_hours += v->idle_gpu_hours;
	u->wait_hours += v->wait_hours;
	u->energy_j += v->energy_j;
	if (v->max_wait_s > u->max_wait_s)
		u->max_wait_s = v->max_wait_s;
	out->total.jobs += v->jobs;
	out->total.gpu_hours += v->gpu_hours;
	out->total.idle_gpu_hours += v->idle_gpu_hours;
	out->total.wait_hours += v->wait_hours;
	out->total.energy_j += v->energy_j;
	if (v->max_wait_s > out->total.max_wait_s)
		out->total.max_wait_s = v->max_wait_s;
}

/* owner: the name every row of this file counts for (a user's own file),
 * or NULL to take each row's (the folder owner's file). */
static int summarize_users(sqlite3 *db, double since, const char *owner, struct acct_summary *out)
{
	static const char sql[] =
		"SELECT COALESCE(?2, user, CAST(uid AS TEXT)), COUNT(*), SUM(gpu_seconds)/3600.0,"
		" SUM(idle_gpu_seconds)/3600.0, SUM(started - queued)/3600.0, MAX(started - queued),"
		" COALESCE(SUM(energy_j), 0)"
		" FROM jobs WHERE ended >= ?1 GROUP BY 1";
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_double(st, 1, since);
	if (owner)
		sqlite3_bind_text(st, 2, owner, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const unsigned char *name = sqlite3_column_text(st, 0);
		struct acct_user u = { 0 };

		snprintf(u.user, sizeof(u.user), "%s", name ? (const char *)name : "?");
		u.jobs = (unsigned)sqlite3_column_int(st, 1);
		u.gpu_hours = sqlite3_column_double(st, 2);
		u.idle_gpu_hours = sqlite3_column_double(st, 3);
		u.wait_hours = sqlite3_column_double(st, 4);
		u.max_wait_s = sqlite3_column_double(st, 5);
		u.energy_j = sqlite3_column_double(st, 6);
		add_user(out, &u);
	}
	sqlite3_finalize(st);
	return 0;
}

static void add_uuid(struct acct_summary *out, const char *u, size_t n)
{
	char (*grown)[96];

	if (!n || n >= sizeof(out->uuids[0]))
		return;
	for (size_t i = 0; i < out->nuuids; i++)
		if (strlen(out->uuids[i]) == n && !strncmp(out->uuids[i], u, n))
			return;
	if (!(grown = realloc(out->uuids, (out->nuuids + 1) * sizeof(*grown))))
		return;
	out->uuids = grown;
	memcpy(out->uuids[out->nuuids], u, n);
	out->uuids[out->nuuids++][n] = '\0';
}

static int leased_uuids(sqlite3 *db, double since, struct acct_summary *out)
{
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db, "SELECT uuids FROM jobs WHERE ended >= ?", -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_double(st, 1, since);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *s = (const char *)sqlite3_column_text(st, 0);

		while (s && *s) {
			size_t n = strcspn(s, ",");

			add_uuid(out, s, n);
			s += n + (s[n] == ',');
		}
	}
	sqlite3_finalize(st);
	return 0;
}

static int by_gpu_hours(const void *a, const void *b)
{
	const struct acct_user *x = a, *y = b;

	if (x->gpu_hours != y->gpu_hours)
		return x->gpu_hours < y->gpu_hours ? 1 : -1;
	return strcmp(x->user, y->user);
}

/* Another user's file read-only: with its -wal and -shm there (the writer
 * never removes them), through them; without a -wal the file holds every
 * row, read as it is (immutable: nothing to create). */
static int open_read(const char *path, bool has_wal, sqlite3 **db)
{
	char uri[4200];

	if (sqlite3_open_v2(path, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOFOLLOW, NULL) == SQLITE_OK &&
	    sqlite3_exec(*db, "SELECT 1 FROM sqlite_schema LIMIT 1", NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	sqlite3_close(*db);
	*db = NULL;
	if (has_wal)
		return -1;
	snprintf(uri, sizeof(uri), "file:%s?immutable=1", path);
	return sqlite3_open_v2(uri, db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOFOLLOW | SQLITE_OPEN_URI, NULL) == SQLITE_OK
		       ? 0
		       : -1;
}

/* One log file into the summary: 0, or -1 with a warning in note. */
static int summarize_file(int dirfd, const char *dir, const char *name, unsigned dir_owner, double since,
			  struct acct_summary *out, char *note, size_t notesz)
{
	char path[4096], what[256], side[300], owner[64];
	unsigned uid = dir_owner;
	const char *why;
	struct stat st;
	sqlite3 *db = NULL;
	double deadline = deadline_in(ACCT_STATEMENT_MS);
	int fd, rc = 0;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (strcmp(name, DB_NAME) && sscanf(name, "accounting-%u.sqlite", &uid) != 1)
		return 0;
	if ((fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) < 0) {
		snprintf(note, notesz, "%s: %s", path, strerror(errno));
		return -1;
	}
	/* The folder owner's file may be root's too (root's jobs, or a file
	 * root made); a user's file only that user's. */
	why = untrusted(fd, uid);
	if (why && !strcmp(name, DB_NAME) && fstat(fd, &st) == 0 && st.st_uid == 0)
		why = untrusted(fd, 0);
	close(fd);
	snprintf(side, sizeof(side), "%s-wal", name);
	for (int i = 0; !why && i < 2; i++) {
		snprintf(side, sizeof(side), "%s%s", name, i ? "-shm" : "-wal");
		if ((fd = openat(dirfd, side, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)) >= 0) {
			fstat(fd, &st);
			why = untrusted(fd, (unsigned)st.st_uid == 0 && !strcmp(name, DB_NAME) ? 0 : uid);
			close(fd);
		}
	}
	if (why) {
		snprintf(note, notesz, _("%s: %s: skipped (its rows are not counted)"), path, why);
		return -1;
	}
	snprintf(side, sizeof(side), "%s-wal", name);
	if (open_read(path, faccessat(dirfd, side, F_OK, AT_SYMLINK_NOFOLLOW) == 0, &db) < 0) {
		snprintf(note, notesz, _("%s: cannot be read: skipped"), path);
		return -1;
	}
	harden(db, &deadline);
	if (!schema_ok(db, what, sizeof(what))) {
		snprintf(note, notesz, _("%s: %s: skipped (its rows are not counted)"), path, what);
		sqlite3_close(db);
		return -1;
	}
	if (strcmp(name, DB_NAME)) {
		struct passwd *pw = getpwuid(uid);

		snprintf(owner, sizeof(owner), "%s", pw ? pw->pw_name : "");
		if (!pw)
			snprintf(owner, sizeof(owner), "%u", uid);
	}
	if (summarize_users(db, since, strcmp(name, DB_NAME) ? owner : NULL, out) < 0 || leased_uuids(db, since, out) < 0) {
		snprintf(note, notesz, _("accounting log %s: %s"), path, sqlite3_errmsg(db));
		rc = -1;
	}
	sqlite3_close(db);
	return rc;
}

int acct_summarize(const char *pool_dir, double since, struct acct_summary *out, char *err, size_t errsz)
{
	struct stat st;
	struct dirent *e;
	DIR *d;
	int dirfd, found = 0;

	memset(out, 0, sizeof(*out));
	snprintf(out->total.user, sizeof(out->total.user), "total");
	if ((dirfd = open(pool_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)) < 0)
		return 1;
	if (fstat(dirfd, &st) != 0 || !(d = fdopendir(dup(dirfd)))) {
		close(dirfd);
		return 1;
	}
	while ((e = readdir(d))) {
		char note[4800] = "";
		size_t n = strlen(e->d_name);

		if (strncmp(e->d_name, "accounting", 10) || n < 7 || strcmp(e->d_name + n - 7, ".sqlite"))
			continue;
		found++;
		if (summarize_file(dirfd, pool_dir, e->d_name, (unsigned)st.st_uid, since, out, note, sizeof(note)) < 0)
			warning_msg("%s", note);
	}
	closedir(d);
	close(dirfd);
	if (out->nusers > 1)
		qsort(out->users, out->nusers, sizeof(*out->users), by_gpu_hours);
	(void)err;
	(void)errsz;
	return found ? 0 : 1;
}

#else /* !GW_HAVE_SQLITE */

bool acct_available(void)
{
	return false;
}

int acct_record(const char *pool_dir, const struct acct_job *j, char *err, size_t errsz)
{
	(void)pool_dir;
	(void)j;
	snprintf(err, errsz, "%s", _("gpuwise was built without SQLite (libsqlite3-dev): no accounting log"));
	return -1;
}

int acct_summarize(const char *pool_dir, double since, struct acct_summary *out, char *err, size_t errsz)
{
	(void)pool_dir;
	(void)since;
	memset(out, 0, sizeof(*out));
	snprintf(err, errsz, "%s", _("gpuwise was built without SQLite (libsqlite3-dev): no accounting log to report on"));
	return -1;
}

#endif

void acct_summary_free(struct acct_summary *s)
{
	free(s->users);
	free(s->uuids);
	s->users = NULL;
	s->uuids = NULL;
	s->nusers = s->nuuids = 0;
}
