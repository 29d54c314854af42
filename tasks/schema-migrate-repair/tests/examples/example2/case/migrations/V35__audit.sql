-- audit (version 35)
CREATE TABLE t_35 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_35 (note) VALUES ('audit; rev 0');
INSERT INTO trace (tag) VALUES ('V35');
