-- alerts (version 1.7)
CREATE TABLE t_1_7 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_1_7 (note) VALUES ('alerts; rev 0');
INSERT INTO trace (tag) VALUES ('V1.7');
