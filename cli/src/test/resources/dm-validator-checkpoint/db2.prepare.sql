drop database if exists `validator_checkpoint`;
create database `validator_checkpoint`;
use `validator_checkpoint`;
create table t2_1 (id int primary key);
create table t2_2 (id int);
