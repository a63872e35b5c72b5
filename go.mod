module github.com/botarena/botarena

go 1.26
