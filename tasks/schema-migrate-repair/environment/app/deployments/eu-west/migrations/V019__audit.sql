-- audit (version 19)
CREATE TABLE t_19 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_19 (note) VALUES ('audit; rev 0');
INSERT INTO trace (tag) VALUES ('V19');
