drop database if exists `validator_checkpoint`;
create database `validator_checkpoint`;
use `validator_checkpoint`;
create table t1_1 (id int primary key, value int);
create table t1_2 (id int);
create table t1_3 (id int);
