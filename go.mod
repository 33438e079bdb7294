module github.com/pbem/pbem

go 1.26.8
