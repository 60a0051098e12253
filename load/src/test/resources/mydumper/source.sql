-- The source data of the committed mydumper 0.10 fixture (MydumperFixtureGenerator dumps it).
CREATE TABLE `t_types` (
  `id` INT NOT NULL PRIMARY KEY,
  `s` VARCHAR(100),
  `txt` TEXT,
  `bin` VARBINARY(32),
  `bl` BLOB,
  `dec` DECIMAL(20,4),
  `dbl` DOUBLE,
  `dt` DATETIME(3),
  `ts` TIMESTAMP NULL DEFAULT NULL,
  `d` DATE,
  `e` ENUM('a','b;c'),
  `j` JSON,
  `bt` BIT(8),
  KEY `k_s` (`s`)
) DEFAULT CHARSET=utf8mb4;
INSERT INTO `t_types` VALUES
 (1, 'it''s; -- not a comment', 'line1\nline2\ttab\\', X'00FF3B275C0A1A80', X'C328FFFE', 12345.6789, 0.5,
  '2024-01-02 03:04:05.678', '2024-05-06 07:08:09', '2024-12-31', 'b;c', '{"a": [1, "x;y"]}', b'10100101'),
 (2, '😀 é 中文 /* no */', '', X'', NULL, -0.0001, -1e10, NULL, NULL, '1000-01-01', 'a', '[]', b'0'),
 (3, NULL, NULL, NULL, X'', NULL, NULL, '9999-12-31 23:59:59.999', '1970-01-01 00:00:01', NULL, NULL, NULL, NULL),
 (4, '#hash', 'a"b`c', X'22', X'5C5C', 1, 2, '2000-02-29 00:00:00', NULL, '2000-02-29', 'a', 'null', b'11111111');
CREATE TABLE `we;ird` (`co``l` INT PRIMARY KEY, `v` VARCHAR(10));
INSERT INTO `we;ird` VALUES (1, 'x'), (2, ';'), (3, '''');
CREATE TABLE `big` (`id` INT PRIMARY KEY, `v` VARCHAR(40));
INSERT INTO `big` SELECT seq, MD5(seq) FROM seq_1_to_60;
CREATE VIEW `v_types` AS SELECT `id`, `s` FROM `t_types` WHERE `id` < 3;
