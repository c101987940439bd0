module github.com/divergo/divergo

go 1.26
