/*!40101 SET NAMES binary*/;
CREATE TABLE `v_types`(
`id` int,
`s` int
)ENGINE=MyISAM;
