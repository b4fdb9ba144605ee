/* gpuwise run's accounting log in SQLite (cli/accounting.h).
 *
 * The file lives in the shared pool folder, so every user's jobs land in
 * it: it is created mode 0666 in a world-writable folder (0660 in a group
 * one) before SQLite opens it, because SQLite creates it 0644 otherwise and
 * gives its journal the database's mode. It is opened without following
 * links (SQLITE_OPEN_NOFOLLOW). The log is advisory: anyone who may write
 * the pool folder may write it. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "accounting.h"
#include "commands.h"

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

static void db_path(char *buf, size_t n, const char *dir)
{
	snprintf(buf, n, "%s/%s", dir, DB_NAME);
}

/* Create the file with the folder's shared mode, past the umask. */
static void precreate(const char *dir, const char *path)
{
	struct stat st;
	mode_t mode = 0600;
	int fd;

	if (lstat(dir, &st) == 0)
		mode = (st.st_mode & S_IWOTH) ? 0666 : (st.st_mode & S_IWGRP) ? 0660 : 0600;
	fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0) {
		if (fchmod(fd, mode) != 0) {
			/* the umask's mode stays: only our own jobs get logged */
		}
		close(fd);
	}
}

static int open_db(const char *dir, bool create, sqlite3 **db, char *err, size_t errsz)
{
	char path[4096];
	int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOFOLLOW;

	db_path(path, sizeof(path), dir);
	if (!create && access(path, F_OK) != 0)
		return 1;
	if (create) {
		precreate(dir, path);
		flags |= SQLITE_OPEN_CREATE;
	}
	if (sqlite3_open_v2(path, db, flags, NULL) != SQLITE_OK) {
		snprintf(err, errsz, "%s: %s", path, *db ? sqlite3_errmsg(*db) : _("cannot open"));
		sqlite3_close(*db);
		*db = NULL;
		return -1;
	}
	/* Jobs of several users end at once: wait for each other. WAL with
	 * NORMAL sync: no fsync per job (a row lost in a power cut costs
	 * little); SQLite gives the -wal and -shm files the database's mode. */
	sqlite3_busy_timeout(*db, 5000);
	if (create) {
		sqlite3_exec(*db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", NULL, NULL, NULL);
		/* Nor a checkpoint (with its fsyncs) each time a job's row is
		 * written and the last connection closes: the -wal file stays,
		 * and acct_record folds it back now and then (wal_frames).
		 * Readers see the rows either way. A checkpoint per job was most
		 * of gpuwise run's overhead (docs/benchmarks.md). */
		sqlite3_db_config(*db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, NULL);
	}
	if (sqlite3_exec(*db, schema, NULL, NULL, NULL) != SQLITE_OK) {
		snprintf(err, errsz, "%s: %s", path, sqlite3_errmsg(*db));
		sqlite3_close(*db);
		*db = NULL;
		return -1;
	}
	if (create) {
		add_column(*db, "ended_by");
		add_column(*db, "slurm_job");
	}
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

int acct_record(const char *pool_dir, const struct acct_job *j, char *err, size_t errsz)
{
	static const char sql[] =
		"INSERT INTO jobs (job, uid, user, name, command, gpus, uuids, queued, started, ended, exit_status,"
		" gpu_seconds, idle_gpu_seconds, mean_util, max_memory_bytes, energy_j, ended_by, slurm_job)"
		" VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
	sqlite3 *db;
	sqlite3_stmt *st;
	int rc, i = 1, frames = 0;

	if (open_db(pool_dir, true, &db, err, errsz) != 0)
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
	rc = sqlite3_step(st);
	if (rc != SQLITE_DONE)
		snprintf(err, errsz, _("accounting log: %s"), sqlite3_errmsg(db));
	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		wal_fold(db, frames);
	sqlite3_close(db);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int summarize_users(sqlite3 *db, double since, struct acct_summary *out)
{
	static const char sql[] =
		"SELECT COALESCE(user, CAST(uid AS TEXT)), COUNT(*), SUM(gpu_seconds)/3600.0,"
		" SUM(idle_gpu_seconds)/3600.0, SUM(started - queued)/3600.0, MAX(started - queued),"
		" COALESCE(SUM(energy_j), 0)"
		" FROM jobs WHERE ended >= ? GROUP BY 1 ORDER BY 3 DESC, 1";
	sqlite3_stmt *st;

	if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_double(st, 1, since);
	while (sqlite3_step(st) == SQLITE_ROW) {
		struct acct_user *u, *grown = realloc(out->users, (out->nusers + 1) * sizeof(*u));
		const unsigned char *name = sqlite3_column_text(st, 0);

		if (!grown)
			break;
		out->users = grown;
		u = &out->users[out->nusers++];
		memset(u, 0, sizeof(*u));
		snprintf(u->user, sizeof(u->user), "%s", name ? (const char *)name : "?");
		u->jobs = (unsigned)sqlite3_column_int(st, 1);
		u->gpu_hours = sqlite3_column_double(st, 2);
		u->idle_gpu_hours = sqlite3_column_double(st, 3);
		u->wait_hours = sqlite3_column_double(st, 4);
		u->max_wait_s = sqlite3_column_double(st, 5);
		u->energy_j = sqlite3_column_double(st, 6);
		out->total.jobs += u->jobs;
		out->total.gpu_hours += u->gpu_hours;
		out->total.idle_gpu_hours += u->idle_gpu_hours;
		out->total.wait_hours += u->wait_hours;
		out->total.energy_j += u->energy_j;
		if (u->max_wait_s > out->total.max_wait_s)
			out->total.max_wait_s = u->max_wait_s;
	}
	snprintf(out->total.user, sizeof(out->total.user), "total");
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

int acct_summarize(const char *pool_dir, double since, struct acct_summary *out, char *err, size_t errsz)
{
	sqlite3 *db;
	int rc;

	memset(out, 0, sizeof(*out));
	snprintf(out->total.user, sizeof(out->total.user), "total");
	if ((rc = open_db(pool_dir, false, &db, err, errsz)) != 0)
		return rc;
	if (summarize_users(db, since, out) < 0 || leased_uuids(db, since, out) < 0) {
		snprintf(err, errsz, _("accounting log: %s"), sqlite3_errmsg(db));
		sqlite3_close(db);
		acct_summary_free(out);
		return -1;
	}
	sqlite3_close(db);
	return 0;
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
