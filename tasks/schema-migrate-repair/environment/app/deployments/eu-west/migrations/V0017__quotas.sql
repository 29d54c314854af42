-- quotas (version 17)
CREATE TABLE t_17 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_17 (note) VALUES ('quotas; rev 0');
INSERT INTO trace (tag) VALUES ('V17');
