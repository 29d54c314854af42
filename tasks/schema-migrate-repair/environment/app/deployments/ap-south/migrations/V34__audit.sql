-- audit (version 34)
CREATE TABLE t_34 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_34 (note) VALUES ('audit; rev 0');
INSERT INTO trace (tag) VALUES ('V34');
