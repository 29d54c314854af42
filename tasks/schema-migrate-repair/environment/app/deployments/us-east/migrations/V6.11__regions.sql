-- regions (version 6.11)
CREATE TABLE t_6_11 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_6_11 (note) VALUES ('regions; rev 0');
INSERT INTO trace (tag) VALUES ('V6.11');
