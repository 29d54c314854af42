-- regions (version 1.12)
CREATE TABLE t_1_12 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_1_12 (note) VALUES ('regions; rev 0');
INSERT INTO trace (tag) VALUES ('V1.12');
