module github.com/vllm-sr/systemone/deploy/check

go 1.26.0
