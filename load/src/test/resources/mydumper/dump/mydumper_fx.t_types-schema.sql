/*!40101 SET NAMES binary*/;
/*!40014 SET FOREIGN_KEY_CHECKS=0*/;

/*!40103 SET TIME_ZONE='+00:00' */;
CREATE TABLE `t_types` (
  `id` int(11) NOT NULL,
  `s` varchar(100) DEFAULT NULL,
  `txt` text DEFAULT NULL,
  `bin` varbinary(32) DEFAULT NULL,
  `bl` blob DEFAULT NULL,
  `dec` decimal(20,4) DEFAULT NULL,
  `dbl` double DEFAULT NULL,
  `dt` datetime(3) DEFAULT NULL,
  `ts` timestamp NULL DEFAULT NULL,
  `d` date DEFAULT NULL,
  `e` enum('a','b;c') DEFAULT NULL,
  `j` longtext CHARACTER SET utf8mb4 COLLATE utf8mb4_bin DEFAULT NULL CHECK (json_valid(`j`)),
  `bt` bit(8) DEFAULT NULL,
  PRIMARY KEY (`id`),
  KEY `k_s` (`s`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci;
