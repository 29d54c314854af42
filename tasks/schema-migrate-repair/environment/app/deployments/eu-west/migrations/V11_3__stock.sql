-- stock (version 11.3)
CREATE TABLE t_11_3 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_11_3 (note) VALUES ('stock; rev 0');
INSERT INTO trace (tag) VALUES ('V11.3');
