"""The schema_history table."""
import datetime

TABLE = "schema_history"
DDL = """CREATE TABLE schema_history (
  rank INTEGER PRIMARY KEY,
  version TEXT,
  description TEXT NOT NULL,
  type TEXT NOT NULL,
  script TEXT NOT NULL,
  checksum TEXT,
  installed_on TEXT NOT NULL,
  success INTEGER NOT NULL
)"""


class Row:
    def __init__(self, rank, version, description, type_, script, checksum, success):
        self.rank = rank
        self.version = version
        self.description = description
        self.type = type_
        self.script = script
        self.checksum = checksum
        self.success = success


def exists(conn):
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name=?", (TABLE,)).fetchone() is not None


def ensure(conn):
    if not exists(conn):
        conn.execute(DDL)


def rows(conn):
    if not exists(conn):
        return []
    cur = conn.execute("SELECT rank, version, description, type, script, checksum, success FROM schema_history ORDER BY rank")
    return [Row(*r) for r in cur.fetchall()]


def now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def insert(conn, version, description, type_, script, checksum, success=1):
    conn.execute("INSERT INTO schema_history (version, description, type, script, checksum, installed_on, success) "
                 "VALUES (?, ?, ?, ?, ?, ?, ?)", (version, description, type_, script, checksum, now(), success))


def delete_version(conn, version):
    conn.execute("DELETE FROM schema_history WHERE version = ? AND type = 'SQL'", (version,))
