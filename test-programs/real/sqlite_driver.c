/* SQLite as a program: the amalgamation (sqlite3.c) comes from the libsqlite3-sys crate's
 * bundled sources (fetched by cargo, not vendored here); this is a small driver over it.
 *
 * Usage: sqlite_driver [ROWS]   (default 500) builds an in-memory table of ROWS rows with an
 * index, then queries, updates and deletes, printing every result.
 *
 * Row i (1..ROWS) has k = i*7919 mod 97 and name 'row<i>'. Expected, by construction:
 * count(*) = ROWS and sum(id) = ROWS(ROWS+1)/2 before the delete; the delete removes the rows
 * with id mod 10 = 0, i.e. ROWS/10 of them (ROWS a multiple of 10).
 */
#include <stdio.h>
#include <stdlib.h>

#include "sqlite3.h"

static int print_row(void *tag, int n, char **values, char **names) {
    printf("%s:", (const char *)tag);
    for (int i = 0; i < n; i++)
        printf(" %s=%s", names[i], values[i] ? values[i] : "NULL");
    printf("\n");
    return 0;
}

static void exec(sqlite3 *db, const char *tag, const char *sql) {
    char *err = NULL;
    if (sqlite3_exec(db, sql, print_row, (void *)tag, &err) != SQLITE_OK) {
        fprintf(stderr, "%s: %s\n", tag, err);
        sqlite3_free(err);
        exit(1);
    }
}

int main(int argc, char **argv) {
    int rows = argc > 1 ? atoi(argv[1]) : 500;
    sqlite3 *db;
    if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
        fprintf(stderr, "cannot open: %s\n", sqlite3_errmsg(db));
        return 1;
    }
    exec(db, "create",
         "CREATE TABLE t(id INTEGER PRIMARY KEY, k INTEGER NOT NULL, name TEXT);"
         "CREATE INDEX t_k ON t(k);");
    sqlite3_stmt *ins;
    if (sqlite3_prepare_v2(db, "INSERT INTO t(id, k, name) VALUES (?1, ?2, ?3)", -1, &ins,
                           NULL) != SQLITE_OK) {
        fprintf(stderr, "prepare: %s\n", sqlite3_errmsg(db));
        return 1;
    }
    exec(db, "begin", "BEGIN");
    for (int i = 1; i <= rows; i++) {
        char name[32];
        snprintf(name, sizeof name, "row%d", i);
        sqlite3_bind_int(ins, 1, i);
        sqlite3_bind_int(ins, 2, (int)((long)i * 7919 % 97));
        sqlite3_bind_text(ins, 3, name, -1, SQLITE_TRANSIENT);
        if (sqlite3_step(ins) != SQLITE_DONE) {
            fprintf(stderr, "insert: %s\n", sqlite3_errmsg(db));
            return 1;
        }
        sqlite3_reset(ins);
    }
    sqlite3_finalize(ins);
    exec(db, "commit", "COMMIT");
    exec(db, "totals", "SELECT count(*) AS n, sum(id) AS ids FROM t");
    exec(db, "groups",
         "SELECT k, count(*) AS n, min(name) AS first FROM t GROUP BY k ORDER BY n DESC, k "
         "LIMIT 3");
    exec(db, "range", "SELECT count(*) AS n FROM t WHERE k BETWEEN 10 AND 20");
    exec(db, "update", "UPDATE t SET name = upper(name) WHERE k = 0");
    exec(db, "upper", "SELECT name FROM t WHERE k = 0 ORDER BY id LIMIT 2");
    exec(db, "delete", "DELETE FROM t WHERE id % 10 = 0");
    exec(db, "after", "SELECT count(*) AS n, sum(length(name)) AS chars FROM t");
    exec(db, "join",
         "SELECT count(*) AS pairs FROM t a JOIN t b ON a.k = b.k AND a.id < b.id WHERE a.k < 5");
    sqlite3_close(db);
    return 0;
}
