-- quotas (version 6)
CREATE TABLE t_6 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_6 (note) VALUES ('quotas; rev 0');
INSERT INTO trace (tag) VALUES ('V6');
